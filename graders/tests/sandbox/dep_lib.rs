// A library the next program links against, like the prebuilt katas rlib at /deps.
pub fn answer() -> u32 {
    42
}
