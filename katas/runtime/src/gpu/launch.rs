//! The plain data a learner's GPU solution hands to the grader: launch shapes and kernel
//! arguments. Nothing here touches the device.

use serde::{Deserialize, Serialize};

/// Grid and block dimensions plus dynamic shared memory, as in `kernel<<<grid, block, shared>>>`.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Serialize, Deserialize)]
pub struct Launch {
    pub grid: (u32, u32, u32),
    pub block: (u32, u32, u32),
    /// Dynamic shared memory in bytes (`extern __shared__`); at most [`MAX_DYNAMIC_SHARED`].
    pub shared_bytes: u32,
}

/// Dynamic shared memory a launch may ask for without opting in per kernel.
pub const MAX_DYNAMIC_SHARED: u32 = 48 << 10;
/// Threads per block on every device we grade on.
pub const MAX_BLOCK_THREADS: u32 = 1024;

impl Launch {
    /// A 1-D launch covering `n` threads in blocks of `block` (at least one block).
    pub fn linear(n: usize, block: u32) -> Self {
        let blocks = ceil_div(n.max(1), block.max(1) as usize);
        Self {
            grid: (u32::try_from(blocks).unwrap_or(u32::MAX), 1, 1),
            block: (block, 1, 1),
            shared_bytes: 0,
        }
    }

    /// A 2-D launch: `grid` blocks of `block` threads.
    pub fn grid_2d(grid: (u32, u32), block: (u32, u32)) -> Self {
        Self {
            grid: (grid.0, grid.1, 1),
            block: (block.0, block.1, 1),
            shared_bytes: 0,
        }
    }

    pub fn with_grid_z(mut self, z: u32) -> Self {
        self.grid.2 = z;
        self
    }

    pub fn with_shared_bytes(mut self, bytes: u32) -> Self {
        self.shared_bytes = bytes;
        self
    }

    /// Why the device would refuse this launch, phrased for the learner; `None` if it is fine.
    pub fn problem(&self) -> Option<String> {
        let (gx, gy, gz) = self.grid;
        let (bx, by, bz) = self.block;
        let threads = u64::from(bx) * u64::from(by) * u64::from(bz);
        if gx == 0 || gy == 0 || gz == 0 || threads == 0 {
            return Some(format!("launch {self:?} has an empty grid or block"));
        }
        if threads > u64::from(MAX_BLOCK_THREADS) || bz > 64 {
            return Some(format!(
                "a block of {bx}×{by}×{bz} = {threads} threads exceeds {MAX_BLOCK_THREADS} (or z > 64)"
            ));
        }
        if gy > 65_535 || gz > 65_535 {
            return Some(format!("grid {gx}×{gy}×{gz}: y and z are at most 65535"));
        }
        if self.shared_bytes > MAX_DYNAMIC_SHARED {
            return Some(format!(
                "{} bytes of dynamic shared memory; at most {MAX_DYNAMIC_SHARED}",
                self.shared_bytes
            ));
        }
        None
    }
}

/// `ceil(a / b)`, the usual block-count helper.
pub const fn ceil_div(a: usize, b: usize) -> usize {
    a.div_ceil(b)
}

/// One kernel parameter as the kata declares it; the compiled kernel must match exactly.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum Param {
    /// Any pointer (`float*`, `const unsigned long long*`, ...): 8 bytes.
    Ptr,
    I32,
    U32,
    I64,
    U64,
    F32,
}

impl Param {
    pub fn bytes(self) -> usize {
        match self {
            Self::Ptr | Self::I64 | Self::U64 => 8,
            Self::I32 | Self::U32 | Self::F32 => 4,
        }
    }

    pub fn c_type(self) -> &'static str {
        match self {
            Self::Ptr => "pointer",
            Self::I32 => "int",
            Self::U32 => "unsigned int",
            Self::I64 => "long long",
            Self::U64 => "unsigned long long",
            Self::F32 => "float",
        }
    }
}

/// An `extern "C" __global__` entry point a kata requires of the learner's `KERNEL`.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub struct KernelSig {
    pub name: &'static str,
    pub params: &'static [Param],
    /// The C declaration, as the statement gives it, for error messages.
    pub declaration: &'static str,
}
