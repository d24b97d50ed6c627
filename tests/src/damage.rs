//! Seeded damage for robustness loops: a text cut short, a character replaced or inserted, or a span
//! deleted, the same on both targets so that a failure reproduces in Node and natively.

/// Characters that change how YAML, JSON, CEL and `kubectl describe` text read.
pub const SPECIALS: &[char] = &[
    '[', ']', '{', '}', ':', '-', '\'', '"', '\\', '(', ')', '=', '!', '&', '|', '\n', ' ', '\t',
    '#', ',', 's', '0', 'é',
];

/// `rounds` damaged copies of `text`, cycling through the four kinds of damage; a deleted span is
/// at most `max_span` characters. The same `seed` gives the same copies.
pub fn copies(text: &str, seed: u64, rounds: usize, max_span: usize) -> Vec<String> {
    let chars: Vec<char> = text.chars().collect();
    if chars.is_empty() {
        return Vec::new();
    }
    let mut state = seed;
    (0..rounds)
        .map(|round| {
            state = state
                .wrapping_mul(6_364_136_223_846_793_005)
                .wrapping_add(1_442_695_040_888_963_407);
            let pos = (state >> 33) as usize % chars.len();
            let special = SPECIALS[(state >> 20) as usize % SPECIALS.len()];
            let mut c = chars.clone();
            match round % 4 {
                0 => c.truncate(pos),
                1 => c[pos] = special,
                2 => c.insert(pos, special),
                _ => {
                    let len = ((state >> 12) as usize % (max_span + 1)).min(c.len() - pos);
                    c.drain(pos..pos + len);
                }
            }
            c.into_iter().collect()
        })
        .collect()
}
