//! Cases and checker for `gpu-contiguous`: copy a strided f32 view into a row-major buffer on the
//! device, as `tensor.permute(...).contiguous()` does.

use katas::Case;
use katas::Group;
use katas::Message;
use katas::gpu::{
    Arg, Device, GpuError, GpuKata, GpuSpec, HostBuf, KernelSig, Launch, Param, Work,
};
use serde::{Deserialize, Serialize};

/// The learner's kernel source and launch shape.
#[derive(Debug, Clone, Copy)]
#[allow(non_snake_case)]
pub struct Solution {
    pub KERNEL: &'static str,
    pub launch: fn(&View) -> Launch,
}

/// A strided view over a flat f32 storage: element `[i0, …, i(r-1)]` lives at
/// `storage[offset + i0·strides[0] + … + i(r-1)·strides[r-1]]`. Rank 1 to 4, every size at
/// least 1, strides in elements (0 for a broadcast dimension).
#[derive(Debug, Clone, PartialEq, Eq, Serialize, Deserialize)]
pub struct View {
    pub sizes: Vec<usize>,
    pub strides: Vec<usize>,
    pub offset: usize,
    /// Floats in the source storage (every element of the view lies inside it).
    pub storage_len: usize,
}

impl View {
    pub fn rank(&self) -> usize {
        self.sizes.len()
    }

    /// Elements in the view, which is the length of the output.
    pub fn numel(&self) -> usize {
        self.sizes.iter().product()
    }

    /// The sizes as 4-D, with leading dimensions of size 1: what `meta[0..4]` holds.
    pub fn sizes4(&self) -> [usize; 4] {
        let mut out = [1; 4];
        out[4 - self.rank()..].copy_from_slice(&self.sizes);
        out
    }

    /// The strides as 4-D, with stride 0 for the added leading dimensions: `meta[4..8]`.
    pub fn strides4(&self) -> [usize; 4] {
        let mut out = [0; 4];
        out[4 - self.rank()..].copy_from_slice(&self.strides);
        out
    }

    /// A contiguous tensor of `sizes`, permuted: dimension `k` of the view is dimension
    /// `dims[k]` of the tensor.
    pub fn permuted(sizes: &[usize], dims: &[usize]) -> Self {
        let strides = row_major(sizes);
        Self {
            sizes: dims.iter().map(|&d| sizes[d]).collect(),
            strides: dims.iter().map(|&d| strides[d]).collect(),
            offset: 0,
            storage_len: sizes.iter().product(),
        }
    }
}

/// Row-major strides of `sizes`.
fn row_major(sizes: &[usize]) -> Vec<usize> {
    let mut strides = vec![0; sizes.len()];
    let mut step = 1;
    for k in (0..sizes.len()).rev() {
        strides[k] = step;
        step *= sizes[k];
    }
    strides
}

pub const PERMUTE_COPY: KernelSig = KernelSig {
    name: "permute_copy",
    params: &[Param::Ptr, Param::Ptr, Param::Ptr, Param::I32, Param::I64],
    declaration: "extern \"C\" __global__ void permute_copy(const float* src, float* dst, \
                  const unsigned long long* meta, int rank, long long n)",
};

/// Entries of the metadata buffer: 4 sizes, 4 strides, the offset.
pub const META_LEN: usize = 9;

/// The trusted oracle: the storage position of output element `index` (row-major order over
/// the view's own sizes and strides, unpadded; independent of any kernel).
fn source_position(view: &View, index: usize) -> usize {
    let mut rest = index;
    let mut position = view.offset;
    for (&size, &stride) in view.sizes.iter().zip(&view.strides).rev() {
        position += (rest % size) * stride;
        rest /= size;
    }
    position
}

#[derive(Debug)]
pub struct Kata;

pub type Spec = GpuSpec<Kata>;

impl GpuKata for Kata {
    type Solution = Solution;
    type Shape = View;
    type Out = f32;
    type Log = ();

    const KERNELS: &'static [KernelSig] = &[PERMUTE_COPY];

    fn kernel_source(solution: &Solution) -> &'static str {
        solution.KERNEL
    }

    fn shapes() -> Vec<Case<View>> {
        let view = |sizes: &[usize], strides: &[usize], offset, storage_len| View {
            sizes: sizes.to_vec(),
            strides: strides.to_vec(),
            offset,
            storage_len,
        };
        let permuted = View::permuted;
        vec![
            Case::new(
                "2×3 matrix transposed",
                Group::Sample,
                permuted(&[2, 3], &[1, 0]),
            )
            .zh("2×3 矩阵转置"),
            Case::new(
                "1×1 matrix transposed",
                Group::Sample,
                permuted(&[1, 1], &[1, 0]),
            )
            .zh("1×1 矩阵转置"),
            Case::new(
                "attention heads, tiny: [1, 3, 2, 4] permuted (0, 2, 1, 3)",
                Group::Sample,
                permuted(&[1, 3, 2, 4], &[0, 2, 1, 3]),
            )
            .zh("很小的注意力头：[1, 3, 2, 4] 按 (0, 2, 1, 3) permute"),
            Case::new(
                "1×1000 transposed into 1000×1",
                Group::Edge,
                permuted(&[1, 1000], &[1, 0]),
            )
            .zh("1×1000 转置为 1000×1"),
            Case::new(
                "1000×1 transposed into 1×1000",
                Group::Edge,
                permuted(&[1000, 1], &[1, 0]),
            )
            .zh("1000×1 转置为 1×1000"),
            Case::new(
                "31×33 transposed into 33×31 (no full tile)",
                Group::Edge,
                permuted(&[31, 33], &[1, 0]),
            )
            .zh("31×33 转置为 33×31（没有完整的 tile）"),
            Case::new(
                "1000×999 transposed into 999×1000",
                Group::Edge,
                permuted(&[1000, 999], &[1, 0]),
            )
            .zh("1000×999 转置为 999×1000"),
            Case::new(
                "x[5:, 3:].t() of a 70×90: a transposed crop with an offset",
                Group::Edge,
                view(&[87, 65], &[1, 90], 5 * 90 + 3, 70 * 90),
            )
            .zh("70×90 的 x[5:, 3:].t()：带 offset 的转置裁剪"),
            Case::new(
                "x[::2, 1::2] of a 64×100: every other row and column",
                Group::Edge,
                view(&[32, 50], &[200, 2], 1, 64 * 100),
            )
            .zh("64×100 的 x[::2, 1::2]：隔行隔列"),
            Case::new(
                "x[:, ::2].t() of a 64×100: a transpose with step 2",
                Group::Edge,
                view(&[50, 64], &[2, 100], 0, 64 * 100),
            )
            .zh("64×100 的 x[:, ::2].t()：步长为 2 的转置"),
            Case::new(
                "already contiguous 7×9×11, at offset 13",
                Group::Edge,
                view(&[7, 9, 11], &[99, 11, 1], 13, 13 + 693 + 20),
            )
            .zh("本已连续的 7×9×11，offset 为 13"),
            Case::new(
                "rank 1: x[2::3] of 3000 floats",
                Group::Edge,
                view(&[1000], &[3], 2, 3000),
            )
            .zh("1 维：3000 个浮点数的 x[2::3]"),
            Case::new(
                "a row broadcast: x.expand(300, 5) of 5 floats (stride 0)",
                Group::Edge,
                view(&[300, 5], &[0, 1], 0, 5),
            )
            .zh("行广播：5 个浮点数的 x.expand(300, 5)（步长为 0）"),
            Case::new(
                "a column broadcast: x[:, None].expand(300, 5) of 300 floats",
                Group::Edge,
                view(&[300, 5], &[1, 0], 0, 300),
            )
            .zh("列广播：300 个浮点数的 x[:, None].expand(300, 5)"),
            Case::new(
                "batched transpose: [3, 65, 97] permuted (0, 2, 1)",
                Group::Edge,
                permuted(&[3, 65, 97], &[0, 2, 1]),
            )
            .zh("批量转置：[3, 65, 97] 按 (0, 2, 1) permute"),
            Case::new(
                "[4, 5, 6, 7] permuted (1, 0, 3, 2)",
                Group::Edge,
                permuted(&[4, 5, 6, 7], &[1, 0, 3, 2]),
            )
            .zh("[4, 5, 6, 7] 按 (1, 0, 3, 2) permute"),
            Case::new(
                "[17, 19, 23] permuted (2, 1, 0)",
                Group::Edge,
                permuted(&[17, 19, 23], &[2, 1, 0]),
            )
            .zh("[17, 19, 23] 按 (2, 1, 0) permute"),
            Case::new(
                "batched transpose: [8, 300, 500] permuted (0, 2, 1)",
                Group::Random,
                permuted(&[8, 300, 500], &[0, 2, 1]),
            )
            .zh("批量转置：[8, 300, 500] 按 (0, 2, 1) permute"),
            Case::new(
                "attention heads: [4, 500, 16, 64] permuted (0, 2, 1, 3)",
                Group::Random,
                permuted(&[4, 500, 16, 64], &[0, 2, 1, 3]),
            )
            .zh("注意力头：[4, 500, 16, 64] 按 (0, 2, 1, 3) permute"),
            Case::new(
                "[2, 64, 48, 81] permuted (3, 1, 0, 2)",
                Group::Random,
                permuted(&[2, 64, 48, 81], &[3, 1, 0, 2]),
            )
            .zh("[2, 64, 48, 81] 按 (3, 1, 0, 2) permute"),
            Case::new(
                "4096×4096 transposed (64 MiB)",
                Group::Performance,
                permuted(&[4096, 4096], &[1, 0]),
            )
            .zh("4096×4096 转置（64 MiB）"),
            Case::new(
                "batched transpose: [8, 1024, 1024] permuted (0, 2, 1) (32 MiB)",
                Group::Performance,
                permuted(&[8, 1024, 1024], &[0, 2, 1]),
            )
            .zh("批量转置：[8, 1024, 1024] 按 (0, 2, 1) permute（32 MiB）"),
            Case::new(
                "attention heads: [8, 1024, 32, 64] permuted (0, 2, 1, 3) (64 MiB)",
                Group::Performance,
                permuted(&[8, 1024, 32, 64], &[0, 2, 1, 3]),
            )
            .zh("注意力头：[8, 1024, 32, 64] 按 (0, 2, 1, 3) permute（64 MiB）"),
        ]
    }

    fn inputs(view: &View, rng: &mut fastrand::Rng) -> Vec<HostBuf> {
        // Random bit patterns (no NaN or infinity): a copy must move bits, not values. Zeros of
        // both signs appear throughout, and always at the middle element of the view.
        const EXPONENT: u32 = 0x7F80_0000;
        let mut src: Vec<f32> = (0..view.storage_len)
            .map(|i| match i % 1021 {
                5 => -0.0,
                6 => 0.0,
                _ => {
                    let bits = rng.u32(..);
                    let bits = if bits & EXPONENT == EXPONENT {
                        bits ^ 0x4000_0000
                    } else {
                        bits
                    };
                    f32::from_bits(bits)
                }
            })
            .collect();
        src[source_position(view, view.numel() / 2)] = -0.0;
        let mut meta = Vec::with_capacity(META_LEN);
        meta.extend(view.sizes4().map(|s| s as u64));
        meta.extend(view.strides4().map(|s| s as u64));
        meta.push(view.offset as u64);
        vec![HostBuf::F32(src), HostBuf::U64(meta)]
    }

    fn output_len(view: &View) -> usize {
        view.numel()
    }

    fn run(
        device: &mut Device<'_>,
        solution: Solution,
        view: &View,
        _log: &mut (),
    ) -> Result<(), GpuError> {
        let n = i64::try_from(view.numel()).map_err(|_| GpuError("n overflows".into()))?;
        let (src, meta, dst) = (device.input(0), device.input(1), device.output());
        device.launch(
            "permute_copy",
            (solution.launch)(view),
            &[
                Arg::Buf(src),
                Arg::Buf(dst),
                Arg::Buf(meta),
                Arg::I32(view.rank() as i32),
                Arg::I64(n),
            ],
        )
    }

    fn check_element(view: &View, inputs: &[HostBuf], i: usize, got: f32) -> Result<(), String> {
        let HostBuf::F32(src) = &inputs[0] else {
            return Err("inputs of the wrong type (our bug)".into());
        };
        let at = source_position(view, i);
        let want = src[at];
        if got.to_bits() == want.to_bits() {
            Ok(())
        } else {
            // Notation only, the same in every language: the message says what is wrong.
            Err(format!(
                "{} = storage[{at}] (bits {:#010x} ≠ {:#010x})",
                katas::decimal(want),
                want.to_bits(),
                got.to_bits()
            ))
        }
    }

    fn work(view: &View) -> Work {
        // Every element read once and written once.
        Work::Bytes(8 * view.numel() as u64)
    }

    fn describe(view: &View) -> Message {
        let (sizes, strides) = (&view.sizes, &view.strides);
        let (offset, len) = (view.offset, view.storage_len);
        Message::new(
            format!("view sizes {sizes:?}, strides {strides:?}, offset {offset} over {len} floats"),
            format!(
                "视图 sizes {sizes:?}，strides {strides:?}，offset {offset}，存储共 {len} 个浮点数"
            ),
        )
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use katas::KataSpec;
    use katas::gpu::GpuOutput;
    use katas::gpu::harness::Ran;

    fn cpu_output(view: &View, inputs: &[HostBuf]) -> Vec<f32> {
        let HostBuf::F32(src) = &inputs[0] else {
            panic!("source is f32")
        };
        (0..view.numel())
            .map(|i| src[source_position(view, i)])
            .collect()
    }

    fn ran(values: Vec<f32>) -> GpuOutput<f32, ()> {
        GpuOutput::Ran(Ran {
            values,
            input_changed: None,
            log: (),
            timed: Vec::new(),
        })
    }

    /// The inputs of a case's correctness run, as the trusted side regenerates them.
    fn case_inputs(case: &katas::gpu::GpuCase<View>) -> Vec<HostBuf> {
        // Run 0's seed is the case seed itself (`run_seed(seed, 0)`).
        Kata::inputs(&case.shape, &mut fastrand::Rng::with_seed(case.seed))
    }

    #[test]
    fn the_oracle_follows_strides_and_offset() {
        let t = View::permuted(&[2, 3], &[1, 0]);
        assert_eq!(
            (t.sizes.clone(), t.strides.clone()),
            (vec![3, 2], vec![1, 3])
        );
        let order: Vec<usize> = (0..6).map(|i| source_position(&t, i)).collect();
        assert_eq!(order, [0, 3, 1, 4, 2, 5]);
        let crop = View {
            sizes: vec![2, 2],
            strides: vec![5, 2],
            offset: 6,
            storage_len: 20,
        };
        let order: Vec<usize> = (0..4).map(|i| source_position(&crop, i)).collect();
        assert_eq!(order, [6, 8, 11, 13]);
        let heads = View::permuted(&[1, 3, 2, 4], &[0, 2, 1, 3]);
        assert_eq!(heads.strides, [24, 4, 8, 1]);
        assert_eq!(source_position(&heads, 4), 8);
        assert_eq!(heads.sizes4(), [1, 2, 3, 4]);
        let row = View::permuted(&[5, 7], &[1, 0]);
        assert_eq!((row.sizes4(), row.strides4()), ([1, 1, 7, 5], [0, 0, 1, 7]));
    }

    #[test]
    fn every_view_lies_inside_its_storage_and_fits_32_bits() {
        for case in Spec::cases(7) {
            let v = &case.input.shape;
            assert!((1..=4).contains(&v.rank()), "{}", case.name);
            assert_eq!(v.strides.len(), v.rank(), "{}", case.name);
            assert!(v.sizes.iter().all(|&s| s >= 1), "{}", case.name);
            let last: usize = v.offset
                + v.sizes
                    .iter()
                    .zip(&v.strides)
                    .map(|(s, t)| (s - 1) * t)
                    .sum::<usize>();
            assert!(last < v.storage_len, "{}", case.name);
            assert!(
                v.storage_len < 1 << 31 && v.numel() < 1 << 31,
                "{}",
                case.name
            );
        }
    }

    #[test]
    fn inputs_are_deterministic_nan_free_and_hold_a_negative_zero() {
        for case in Spec::cases(3)
            .into_iter()
            .filter(|c| c.group != Group::Performance)
        {
            let a = case_inputs(&case.input);
            assert_eq!(a, case_inputs(&case.input));
            let HostBuf::F32(src) = &a[0] else { panic!() };
            assert!(src.iter().all(|v| v.is_finite()), "{}", case.name);
            let out = cpu_output(&case.input.shape, &a);
            assert!(
                out.iter().any(|v| v.to_bits() == 0x8000_0000),
                "{}",
                case.name
            );
            assert_eq!(a[1].len(), META_LEN);
        }
    }

    #[test]
    fn the_check_accepts_the_cpu_copy_and_rejects_any_wrong_bit() {
        for case in Spec::cases(11)
            .into_iter()
            .filter(|c| c.group != Group::Performance)
        {
            let input = &case.input;
            let expected = Spec::oracle(input).expect("no precomputation");
            let good = cpu_output(&input.shape, &case_inputs(input));
            assert!(
                Spec::check(input, &expected, &ran(good.clone())).is_pass(),
                "{}",
                case.name
            );

            // -0.0 written as +0.0: a value comparison would pass, the bitwise one does not.
            let zero = good
                .iter()
                .position(|v| v.to_bits() == 0x8000_0000)
                .unwrap();
            let mut bad = good.clone();
            bad[zero] = 0.0;
            assert!(!Spec::check(input, &expected, &ran(bad)).is_pass());

            let mut bad = good.clone();
            let last = bad.len() - 1;
            bad[last] = f32::from_bits(bad[last].to_bits() ^ 1);
            assert!(!Spec::check(input, &expected, &ran(bad)).is_pass());

            let mut bad = good.clone();
            bad[0] = f32::from_bits(u32::MAX);
            assert!(!Spec::check(input, &expected, &ran(bad)).is_pass());

            assert!(!Spec::check(input, &expected, &ran(good[1..].to_vec())).is_pass());
        }
    }

    #[test]
    fn a_copy_that_ignores_the_strides_fails() {
        let case = &Spec::cases(5)[0].input;
        let HostBuf::F32(src) = &case_inputs(case)[0] else {
            panic!()
        };
        let naive = src[..case.shape.numel()].to_vec();
        let expected = Spec::oracle(case).unwrap();
        assert!(!Spec::check(case, &expected, &ran(naive)).is_pass());
    }

    #[test]
    fn a_changed_input_fails() {
        let case = &Spec::cases(5)[0].input;
        let good = cpu_output(&case.shape, &case_inputs(case));
        let GpuOutput::Ran(mut run) = ran(good) else {
            unreachable!()
        };
        run.input_changed = Some((0, 1, "1.0".into(), "2.0".into()));
        let expected = Spec::oracle(case).unwrap();
        assert!(!Spec::check(case, &expected, &GpuOutput::Ran(run)).is_pass());
    }

    #[cfg(feature = "solutions")]
    const UNWRITTEN: u32 = u32::MAX;

    /// A CPU model of the reference kernel, statement by statement, under the reference's own
    /// launch: every output element written exactly once, from the right place, and every read
    /// inside the storage. (There is no GPU here; this checks the index arithmetic and the grid.)
    #[cfg(feature = "solutions")]
    // The loops mirror the kernel's thread indices on purpose.
    #[allow(clippy::needless_range_loop)]
    fn model_reference(view: &View) -> Vec<u32> {
        let launch = crate::problems::gpu_contiguous::reference::launch(view);
        assert_eq!(launch.problem(), None, "{view:?}");
        let (s, t) = (view.sizes4(), view.strides4());
        let offset = view.offset;
        let n = view.numel();
        let mut out = vec![UNWRITTEN; n];
        let mut write = |i: usize, from: usize| {
            assert!(from < view.storage_len, "read outside the storage");
            assert_eq!(out[i], UNWRITTEN, "element {i} written twice");
            out[i] = from as u32;
        };
        let (gx, gy, gz) = launch.grid;
        let (bx, by, bz) = launch.block;
        let (gx, gy, gz) = (gx as usize, gy as usize, gz as usize);
        if t[2] == 1 && t[3] != 1 && (bx, by, bz) == (32, 8, 1) {
            const TILE: usize = 32;
            let (r_len, c_len) = (s[2], s[3]);
            let batches = s[0] * s[1];
            let tiles_r = r_len.div_ceil(TILE);
            let tiles_c = c_len.div_ceil(TILE);
            for bz_i in 0..gz {
                for by_i in 0..gy {
                    for bx_i in 0..gx {
                        let mut ab = bz_i;
                        while ab < batches {
                            let in_base = offset + (ab / s[1]) * t[0] + (ab % s[1]) * t[1];
                            let out_base = ab * r_len * c_len;
                            let mut tr = by_i;
                            while tr < tiles_r {
                                let mut tc = bx_i;
                                while tc < tiles_c {
                                    let (r0, c0) = (tr * TILE, tc * TILE);
                                    // tile[j][x] = source position read by thread (x, y).
                                    let mut tile = [[None; TILE + 1]; TILE];
                                    for ty in 0..8 {
                                        for tx in 0..32 {
                                            let r = r0 + tx;
                                            let mut j = ty;
                                            while j < TILE {
                                                let c = c0 + j;
                                                if r < r_len && c < c_len {
                                                    tile[j][tx] = Some(in_base + r + c * t[3]);
                                                }
                                                j += 8;
                                            }
                                        }
                                    }
                                    for ty in 0..8 {
                                        for tx in 0..32 {
                                            let c = c0 + tx;
                                            let mut j = ty;
                                            while j < TILE {
                                                let r = r0 + j;
                                                if r < r_len && c < c_len {
                                                    let from = tile[tx][j].expect("tile filled");
                                                    write(out_base + r * c_len + c, from);
                                                }
                                                j += 8;
                                            }
                                        }
                                    }
                                    tc += gx;
                                }
                                tr += gy;
                            }
                            ab += gz;
                        }
                    }
                }
            }
        } else {
            let threads = (bx * by * bz) as usize;
            let total = gx * gy * gz * threads;
            for block in 0..gx * gy * gz {
                for thread in 0..threads {
                    let mut i = block * threads + thread;
                    while i < n {
                        let mut k = i;
                        let i3 = k % s[3];
                        k /= s[3];
                        let i2 = k % s[2];
                        k /= s[2];
                        let i1 = k % s[1];
                        let i0 = k / s[1];
                        write(i, offset + i0 * t[0] + i1 * t[1] + i2 * t[2] + i3 * t[3]);
                        i += total;
                    }
                }
            }
        }
        out
    }

    #[cfg(feature = "solutions")]
    #[test]
    fn a_model_of_the_reference_kernel_copies_every_case() {
        let mut tiled = 0;
        for case in Spec::cases(1) {
            let view = &case.input.shape;
            let t = view.strides4();
            if t[2] == 1 && t[3] != 1 {
                tiled += 1;
            }
            let model = model_reference(view);
            for (i, from) in model.into_iter().enumerate() {
                assert_eq!(
                    from as usize,
                    source_position(view, i),
                    "{}: [{i}]",
                    case.name
                );
            }
        }
        assert!(tiled >= 8, "{tiled} cases take the tiled path");
    }
}
