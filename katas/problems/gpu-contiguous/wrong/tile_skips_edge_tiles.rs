//! expected-verdict: wrong_answer
//! The tiled transpose without edge handling: every tile is assumed to be a full 32×32, and the
//! tiles that overhang the matrix (any size that is not a multiple of 32) are skipped instead of
//! guarded, so their elements are never written and keep the poison value.

use katas::gpu::{Launch, ceil_div};
use katas::problems::gpu_contiguous::View;

pub const KERNEL: &str = r#"
#define TILE 32
#define ROWS 8

extern "C" __global__ void permute_copy(const float* __restrict__ src, float* __restrict__ dst,
                                        const unsigned long long* __restrict__ meta, int rank,
                                        long long n) {
    __shared__ float tile[TILE][TILE + 1];
    // The view as 4-D (leading dimensions of size 1 and stride 0 when rank < 4).
    const unsigned int s0 = (unsigned int)meta[0], s1 = (unsigned int)meta[1];
    const unsigned int s2 = (unsigned int)meta[2], s3 = (unsigned int)meta[3];
    const unsigned long long t0 = meta[4], t1 = meta[5], t2 = meta[6], t3 = meta[7];
    const unsigned long long offset = meta[8];

    if (t2 == 1 && t3 != 1 && blockDim.x == TILE && blockDim.y == ROWS && blockDim.z == 1) {
        // Output [a][b][r][c] = src[offset + a*t0 + b*t1 + r + c*t3]: r runs along the source,
        // c along the output.
        const unsigned int R = s2, C = s3;
        const unsigned int batches = s0 * s1;
        const unsigned int tiles_r = (R + TILE - 1) / TILE, tiles_c = (C + TILE - 1) / TILE;
        for (unsigned int ab = blockIdx.z; ab < batches; ab += gridDim.z) {
            const unsigned long long in_base = offset + (ab / s1) * t0 + (ab % s1) * t1;
            const unsigned long long out_base = (unsigned long long)ab * R * C;
            for (unsigned int tr = blockIdx.y; tr < tiles_r; tr += gridDim.y) {
                for (unsigned int tc = blockIdx.x; tc < tiles_c; tc += gridDim.x) {
                    const unsigned int r0 = tr * TILE, c0 = tc * TILE;
                    // Only full tiles: one that overhangs the matrix is skipped, not guarded.
                    if (r0 + TILE > R || c0 + TILE > C) continue;
                    // Load: threadIdx.x walks r (adjacent in the source).
                    const unsigned int r = r0 + threadIdx.x;
                    for (unsigned int j = threadIdx.y; j < TILE; j += ROWS) {
                        const unsigned int c = c0 + j;
                        {
                            tile[j][threadIdx.x] = src[in_base + r + (unsigned long long)c * t3];
                        }
                    }
                    __syncthreads();
                    // Store: threadIdx.x walks c (adjacent in the output).
                    const unsigned int c = c0 + threadIdx.x;
                    for (unsigned int j = threadIdx.y; j < TILE; j += ROWS) {
                        const unsigned int rr = r0 + j;
                        {
                            dst[out_base + (unsigned long long)rr * C + c] = tile[threadIdx.x][j];
                        }
                    }
                    // The next tile overwrites `tile`: wait until every thread has read it.
                    __syncthreads();
                }
            }
        }
        return;
    }

    // Gather: output element i, in row-major order of the view.
    const unsigned long long threads = (unsigned long long)blockDim.x * blockDim.y * blockDim.z;
    const unsigned long long block =
        ((unsigned long long)blockIdx.z * gridDim.y + blockIdx.y) * gridDim.x + blockIdx.x;
    const unsigned long long thread = (threadIdx.z * blockDim.y + threadIdx.y) * blockDim.x
                                      + threadIdx.x;
    const unsigned long long stride =
        threads * gridDim.x * gridDim.y * gridDim.z;
    for (unsigned long long i = block * threads + thread; i < (unsigned long long)n; i += stride) {
        unsigned int k = (unsigned int)i;
        const unsigned int i3 = k % s3;
        k /= s3;
        const unsigned int i2 = k % s2;
        k /= s2;
        const unsigned int i1 = k % s1;
        const unsigned int i0 = k / s1;
        dst[i] = src[offset + i0 * t0 + i1 * t1 + i2 * t2 + i3 * t3];
    }
}
"#;

/// The tiled grid (one 32×8 block per 32×32 tile, one grid layer per leading index) when the
/// view transposes its last two dimensions; otherwise 256 threads per block, one per element.
pub fn launch(view: &View) -> Launch {
    let (sizes, strides) = (view.sizes4(), view.strides4());
    if strides[2] == 1 && strides[3] != 1 {
        let tiles = |d: usize| u32::try_from(ceil_div(d, 32)).unwrap_or(u32::MAX);
        let layers = u32::try_from(sizes[0] * sizes[1]).unwrap_or(u32::MAX);
        Launch::grid_2d((tiles(sizes[3]), tiles(sizes[2]).min(65_535)), (32, 8))
            .with_grid_z(layers.min(65_535))
    } else {
        Launch::linear(view.numel(), 256)
    }
}
