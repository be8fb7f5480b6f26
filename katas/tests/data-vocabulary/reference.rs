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
    let sum = i64::from(a)
        + i64::from(b)
        + i64::from(c)
        + d
        + i64::from(e)
        + i64::from(f)
        + i64::from(g)
        + (h % 1000) as i64
        + i as i64
        + pairs
            .iter()
            .map(|(k, v)| i64::from(*k) + v.unwrap_or(0))
            .sum::<i64>();
    let mut points = shape.points;
    points.reverse();
    (sum, points, shape.weight.map(|w| w * 2.0), !shape.closed)
}
