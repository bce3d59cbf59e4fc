//! For the tests of the C ABI: compiling the C programs of `ffi/examples` with
//! `cc` against `libdamka_ffi.a`, sample positions, and their bit sets in the layout
//! of `damka.h`.

use std::path::{Path, PathBuf};
use std::process::Command;

use damka_core::{Color, PieceKind, Position, Variant, VariantKind};

/// The directory cargo built this test into (`target/<profile>/deps`), which
/// holds `libdamka_ffi.a`: the root package's dev-dependency on `damka-ffi` builds it.
fn deps_dir() -> PathBuf {
    let exe = std::env::current_exe().unwrap();
    exe.parent().unwrap().to_path_buf()
}

/// Compiles `ffi/examples/<name>.c` into `out_dir`, linked statically with
/// Damka; fails the test with a clear message when `cc` is missing.
pub fn compile(name: &str, out_dir: &Path) -> PathBuf {
    let root = Path::new(env!("CARGO_MANIFEST_DIR"));
    let library = deps_dir().join("libdamka_ffi.a");
    assert!(
        library.is_file(),
        "{} was not built: the damka-ffi dev-dependency should have built it",
        library.display()
    );
    let exe = out_dir.join(name);
    let run = Command::new("cc")
        .args(["-std=c99", "-O2", "-Wall", "-Wextra", "-Werror", "-I"])
        .arg(root.join("ffi/include"))
        .arg(root.join(format!("ffi/examples/{name}.c")))
        .arg(&library)
        .args(["-lpthread", "-ldl", "-lm", "-o"])
        .arg(&exe)
        .output()
        .unwrap_or_else(|e| {
            panic!(
                "cannot run the C compiler `cc` ({e}): the C ABI tests need one \
                 (on Debian: apt-get install gcc)"
            )
        });
    assert!(
        run.status.success(),
        "cc failed on {name}.c:\n{}",
        String::from_utf8_lossy(&run.stderr)
    );
    exe
}

/// A small deterministic generator (xorshift64*), so that samples are the same
/// on every run.
pub struct Sampler(u64);

impl Sampler {
    /// A generator seeded with `seed` (not 0).
    pub fn new(seed: u64) -> Sampler {
        Sampler(seed)
    }

    /// A number in `0..n`.
    pub fn below(&mut self, n: usize) -> usize {
        self.0 ^= self.0 >> 12;
        self.0 ^= self.0 << 25;
        self.0 ^= self.0 >> 27;
        (self.0.wrapping_mul(0x2545_f491_4f6c_dd1d) >> 33) as usize % n
    }
}

/// `count` distinct legal positions with `min..=max` pieces, each side at least
/// one, drawn by `sampler`.
pub fn sample_positions<V: Variant>(
    sampler: &mut Sampler,
    count: usize,
    min: usize,
    max: usize,
) -> Vec<Position<V>> {
    let squares = V::GEOMETRY.squares;
    let mut out: Vec<Position<V>> = Vec::new();
    while out.len() < count {
        let pieces = min + sampler.below(max - min + 1);
        let mut chosen = Vec::new();
        for i in 0..pieces {
            let color = if i == 0 || (i > 1 && sampler.below(2) == 0) {
                Color::White
            } else {
                Color::Black
            };
            let kind = if sampler.below(3) == 0 {
                PieceKind::King
            } else {
                PieceKind::Man
            };
            chosen.push((color, kind, sampler.below(squares)));
        }
        let side = if sampler.below(2) == 0 {
            Color::White
        } else {
            Color::Black
        };
        if let Ok(pos) = Position::from_pieces(side, chosen) {
            if !out.contains(&pos) {
                out.push(pos);
            }
        }
    }
    out
}

/// The bit of `damka.h`'s layout for the square named `name`, worked out from
/// the name alone: Russian counts dark squares from a1 rank by rank, International
/// bit `i` is square `i + 1`.
fn layout_bit(kind: VariantKind, name: &str) -> u32 {
    match kind {
        VariantKind::Russian => {
            let file = u32::from(name.as_bytes()[0] - b'a');
            let rank = u32::from(name.as_bytes()[1] - b'1');
            rank * 4 + file / 2
        }
        VariantKind::International => name.parse::<u32>().unwrap() - 1,
    }
}

/// The line `probe_threads.c` reads for `pos`: four hexadecimal sets in
/// `damka.h`'s layout and the side to move.
pub fn bits_line<V: Variant>(pos: &Position<V>) -> String {
    let mut sets = [0u64; 4];
    for square in 0..V::GEOMETRY.squares {
        if let Some((color, kind)) = pos.piece_at(square) {
            let set = match (color, kind) {
                (Color::White, PieceKind::Man) => 0,
                (Color::White, PieceKind::King) => 1,
                (Color::Black, PieceKind::Man) => 2,
                (Color::Black, PieceKind::King) => 3,
            };
            sets[set] |= 1 << layout_bit(V::KIND, &V::square_name(square));
        }
    }
    let side = if pos.side() == Color::White { "w" } else { "b" };
    format!(
        "{:x} {:x} {:x} {:x} {side}",
        sets[0], sets[1], sets[2], sets[3]
    )
}
