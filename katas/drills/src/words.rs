//! The few English words grading itself writes into a result ("picked", a count's unit), said
//! in the viewer's language when shown. Stored results keep the English words, so a result
//! reads right in whichever language it is viewed later.

/// Units and result words with their 中文; SI units (ms, MB, GB/s) read the same in both.
const ZH: &[(&str, &str)] = &[
    ("picked", "选了"),
    ("not picked", "没选"),
    ("steps", "步"),
    ("bytes", "字节"),
    ("value", "值"),
    ("heads", "个头"),
    ("all-reduces", "次 all-reduce"),
    ("M", "百万"),
    ("multiplications", "次乘法"),
    ("bits", "位"),
    ("blocks", "个块"),
    ("slots", "个槽位"),
    ("requests", "个请求"),
    ("tokens", "个 token"),
    ("tiles", "个分块"),
    ("parameters", "个参数"),
    ("micro-batches", "个微批次"),
    // A predict-part's choices (the answer typed or picked stays the English word).
    ("yes", "是"),
    ("no", "否"),
    ("ok", "正常运行"),
    ("raises", "抛出异常"),
];

/// Drill tags as people read them; a tag not listed shows as written (API names such as
/// `asyncio` or `mmap` read the same in both languages).
const TAGS: &[(&str, &str, &str)] = &[
    ("activations", "activation memory", "激活值显存"),
    ("all-gather", "all-gather", "all-gather"),
    ("all-reduce", "all-reduce", "all-reduce"),
    ("all-to-all", "all-to-all", "all-to-all"),
    ("alpha-beta", "α-β model", "α-β 模型"),
    ("attention", "attention", "注意力"),
    ("backward", "backward pass", "反向传播"),
    ("bandwidth", "bandwidth", "带宽"),
    ("batch-norm", "batch norm", "批归一化"),
    ("bubble", "pipeline bubble", "流水线气泡"),
    ("busbw", "bus bandwidth", "总线带宽"),
    ("cancellation", "catastrophic cancellation", "灾难性抵消"),
    ("capacity", "expert capacity", "专家容量"),
    ("chunks", "chunks", "分块"),
    ("collectives", "collectives", "集合通信"),
    ("column-parallel", "column-parallel", "列并行"),
    ("contiguous", "contiguous", "连续性"),
    ("copy", "copies", "复制"),
    ("copy-on-write", "copy-on-write", "写时复制"),
    ("cpu-bound", "CPU-bound", "CPU 密集"),
    ("expand", "expand", "expand"),
    ("expert-parallel", "expert parallelism", "专家并行"),
    ("flash-attention", "FlashAttention", "FlashAttention"),
    ("flops", "FLOPs", "计算量（FLOPs）"),
    ("fork", "fork", "fork"),
    ("fragmentation", "fragmentation", "碎片"),
    ("free-threading", "free-threading", "无 GIL 构建"),
    ("gamma", "reduction cost (γ)", "归约计算（γ）"),
    ("gil", "GIL", "GIL"),
    ("gqa", "grouped-query attention", "分组查询注意力"),
    ("graphs", "graphs", "计算图"),
    ("grpc", "gRPC", "gRPC"),
    ("hardware", "hardware", "硬件"),
    ("implementations", "Python implementations", "Python 实现"),
    ("indexing", "indexing", "索引"),
    ("interleaved", "interleaved schedule", "交错调度"),
    ("io-bound", "I/O-bound", "I/O 密集"),
    ("ipc", "IPC", "进程间通信"),
    ("kernel-fusion", "kernel fusion", "算子融合"),
    ("kv-cache", "KV cache", "KV 缓存"),
    ("latency", "latency", "延迟"),
    ("layer-norm", "LayerNorm", "LayerNorm"),
    ("load-balancing", "load balancing", "负载均衡"),
    ("log-sum-exp", "log-sum-exp", "对数求和指数"),
    ("math", "math", "数学"),
    ("memory", "memory", "内存"),
    ("memory-bandwidth", "memory bandwidth", "显存带宽"),
    ("modular", "modular arithmetic", "模运算"),
    ("moe", "mixture of experts", "混合专家"),
    ("multiprocessing", "multiprocessing", "多进程"),
    ("numerics", "numerics", "数值计算"),
    ("online-softmax", "online softmax", "在线 softmax"),
    ("overflow", "overflow", "溢出"),
    ("paging", "paging", "分页"),
    ("parameters", "parameter count", "参数量"),
    ("pep", "PEPs", "PEP"),
    ("pickle", "pickle", "pickle 序列化"),
    ("pipeline-parallel", "pipeline parallelism", "流水线并行"),
    ("proxy", "proxies", "代理对象"),
    ("race", "races", "竞态"),
    ("recomputation", "recomputation", "重计算"),
    (
        "recursive-halving-doubling",
        "halving-doubling",
        "递归减半-加倍",
    ),
    ("reduce-scatter", "reduce-scatter", "reduce-scatter"),
    ("refcount", "reference counts", "引用计数"),
    ("ring", "ring", "环形算法"),
    ("rms-norm", "RMSNorm", "RMSNorm"),
    ("row-parallel", "row-parallel", "行并行"),
    ("sequence-parallel", "sequence parallelism", "序列并行"),
    ("shapes", "shapes", "形状"),
    ("shared-memory", "shared memory", "共享内存"),
    ("single-thread", "single-thread speed", "单线程性能"),
    ("size-1", "size-1 dimensions", "大小为 1 的维度"),
    ("slicing", "slicing", "切片"),
    ("sockets", "sockets", "套接字"),
    ("squaring", "squaring", "平方求幂"),
    ("start-method", "start methods", "启动方式"),
    ("steps", "steps", "步数"),
    ("storage-offset", "storage offset", "存储偏移"),
    ("strides", "strides", "步长"),
    ("subinterpreters", "sub-interpreters", "子解释器"),
    ("tensor-parallel", "tensor parallelism", "张量并行"),
    ("threads", "threads", "线程"),
    (
        "torch-distributed",
        "torch.distributed",
        "torch.distributed",
    ),
    ("transpose", "transpose", "转置"),
    ("tree", "tree", "树形算法"),
    ("units", "units", "单位换算"),
    ("view", "views", "视图"),
    ("volume", "volume", "数据量"),
    ("welford", "Welford's algorithm", "Welford 算法"),
];

/// A drill tag in `lang`, or `None` for a tag this list does not know (a kata slug, say).
pub fn tag(tag: &str, lang: &str) -> Option<&'static str> {
    TAGS.iter()
        .find(|(t, _, _)| *t == tag)
        .map(|&(_, en, zh)| if lang == "zh" { zh } else { en })
}

/// `word` in `lang` (`"zh"` or anything else for English); unknown words unchanged.
pub fn word(word: &str, lang: &str) -> String {
    if lang != "zh" {
        return word.to_string();
    }
    ZH.iter()
        .find(|(en, _)| *en == word)
        .map_or_else(|| word.to_string(), |(_, zh)| (*zh).to_string())
}

/// A shown quantity such as `"16 steps"` or a result word, with its word in `lang`.
pub fn quantity(text: &str, lang: &str) -> String {
    if let Some(zh) = ZH
        .iter()
        .find(|(en, _)| *en == text)
        .map(|_| word(text, lang))
    {
        return zh;
    }
    match text.rsplit_once(' ') {
        Some((number, unit)) if number.parse::<f64>().is_ok() => {
            format!("{number} {}", word(unit, lang))
        }
        _ => text.to_string(),
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn result_words_and_count_units_read_in_chinese() {
        assert_eq!(quantity("picked", "zh"), "选了");
        assert_eq!(quantity("not picked", "zh"), "没选");
        assert_eq!(quantity("16 steps", "zh"), "16 步");
        assert_eq!(quantity("4096 bytes", "zh"), "4096 字节");
        assert_eq!(quantity("12.5 ms", "zh"), "12.5 ms");
        assert_eq!(quantity("16 steps", "en"), "16 steps");
        assert_eq!(word("value", "zh"), "值");
        assert_eq!(word("GB/s", "zh"), "GB/s");
        assert_eq!(tag("strides", "zh"), Some("步长"));
        assert_eq!(tag("alpha-beta", "en"), Some("α-β model"));
        assert_eq!(tag("tp-split", "zh"), None);
        assert_eq!(quantity("no", "zh"), "否");
        assert_eq!(quantity("raises", "zh"), "抛出异常");
        assert_eq!(quantity("yes", "en"), "yes");
        // Python's literals read the same in both languages.
        assert_eq!(quantity("True", "zh"), "True");
    }
}
