use katas::problems::data_vocabulary::{Point, Shape};

#[allow(clippy::too_many_arguments)]
pub fn digest(
    a: i8,
    b: i16,
    c: i32,
    d: i64,
    e: u8,
    f: u16,
    g: u32,
    h: u64,
    i: usize,
    shape: Shape,
    pairs: Vec<(u8, Option<i64>)>,
) -> (i64, Vec<Point>, Option<f64>, bool) {
    todo!("{a} {b} {c} {d} {e} {f} {g} {h} {i} {shape:?} {pairs:?}")
}
