//! The C ABI called from Rust, as C calls it: answers equal the probe API's,
//! every kind of bad input gets its own error code and a message (never a
//! panic), and `damka_probe_bits` allocates nothing beyond what the probe itself
//! does.

use std::alloc::{GlobalAlloc, Layout, System};
use std::cell::Cell;
use std::ffi::{c_char, CStr, CString};
use std::path::Path;
use std::ptr::{null, null_mut};

use damka_core::{notation, Position, Russian};
use damka_ffi::*;
use damka_gen::{build_rules, BuildOptions, RuleBuildOptions};
use damka_probe::limits::RuleSet;
use damka_probe::{Tablebase, Wdl};

/// Counts the allocations of the current thread.
struct Counting;

thread_local! {
    static ALLOCATIONS: Cell<usize> = const { Cell::new(0) };
}

// SAFETY: forwards to the system allocator; the count is a const-initialized
// thread-local, which allocates nothing.
unsafe impl GlobalAlloc for Counting {
    unsafe fn alloc(&self, layout: Layout) -> *mut u8 {
        ALLOCATIONS.with(|n| n.set(n.get() + 1));
        // SAFETY: the caller's layout, passed on.
        unsafe { System.alloc(layout) }
    }

    unsafe fn dealloc(&self, ptr: *mut u8, layout: Layout) {
        // SAFETY: the caller's pointer and layout, passed on.
        unsafe { System.dealloc(ptr, layout) }
    }
}

#[global_allocator]
static COUNTING: Counting = Counting;

/// The allocations `f` makes on this thread.
fn allocations(f: impl FnOnce()) -> usize {
    let before = ALLOCATIONS.with(Cell::get);
    f();
    ALLOCATIONS.with(Cell::get) - before
}

/// Russian tables of up to 3 pieces with the Russian rule tables, in a fresh
/// temporary directory.
fn tables() -> tempfile::TempDir {
    let dir = tempfile::Builder::new()
        .prefix("damka-ffi-")
        .tempdir()
        .unwrap();
    let options = RuleBuildOptions {
        tables: BuildOptions {
            root: dir.path().to_path_buf(),
            max_pieces: 3,
            only: None,
            with_dependencies: false,
            memory: None,
            progress: None,
        },
        set: RuleSet::preset("russian").unwrap(),
    };
    build_rules::<Russian>(&options, &mut |_| {}).unwrap();
    dir
}

/// A handle on `dir`'s Russian tables.
fn open(dir: &Path) -> *mut damka_tb {
    let dir = CString::new(dir.to_str().unwrap()).unwrap();
    let mut err = [0 as c_char; 256];
    // SAFETY: valid strings and a 256-byte buffer.
    let tb = unsafe {
        damka_open(
            dir.as_ptr(),
            c"russian".as_ptr(),
            err.as_mut_ptr(),
            err.len(),
        )
    };
    assert!(!tb.is_null(), "{}", text(&err));
    tb
}

/// A NUL-terminated `char` array as text.
fn text(buf: &[c_char]) -> String {
    // SAFETY: every buffer here is NUL-terminated.
    unsafe { CStr::from_ptr(buf.as_ptr()) }
        .to_string_lossy()
        .into_owned()
}

/// This thread's last error message.
fn last_error() -> String {
    let mut buf = [0 as c_char; 512];
    // SAFETY: a 512-byte buffer.
    unsafe { damka_last_error(buf.as_mut_ptr(), buf.len()) };
    text(&buf)
}

/// `damka_probe_fen` on `fen`: the code and the result.
fn probe_fen(tb: *mut damka_tb, fen: &str) -> (i32, damka_result) {
    let fen = CString::new(fen).unwrap();
    let mut out = damka_result {
        wdl: 9,
        dtw: 9,
        best_move: [0; 64],
    };
    // SAFETY: a live handle, a string and a result.
    let code = unsafe { damka_probe_fen(tb, fen.as_ptr(), &mut out) };
    (code, out)
}

/// `damka_probe_rules_fen` on `fen` with `played`: the code and the result.
fn probe_rules(tb: *mut damka_tb, fen: &str, set: &str, played: &str) -> (i32, damka_rules_result) {
    let (fen, set, played) = (
        CString::new(fen).unwrap(),
        CString::new(set).unwrap(),
        CString::new(played).unwrap(),
    );
    let mut out = damka_rules_result {
        value: 9,
        rule: [0; 16],
        distance: 9,
        best_move: [0; 64],
    };
    // SAFETY: a live handle, strings and a result.
    let code =
        unsafe { damka_probe_rules_fen(tb, fen.as_ptr(), set.as_ptr(), played.as_ptr(), &mut out) };
    (code, out)
}

#[test]
fn answers_are_the_probe_api_s() {
    let dir = tables();
    let tb = open(dir.path());
    let direct = Tablebase::<Russian>::open(dir.path()).unwrap();
    // SAFETY: a live handle.
    assert_eq!(unsafe { damka_max_pieces(tb) }, 3);
    for fen in [
        "W:WKa1,Kc3:BKh8",
        "B:WKa1,Kc3:BKh8",
        "W:WKc1:BKh2",
        "W:Wg3,h2:Bf2",
        "W:Wc3:Bd4,f6",
    ] {
        let pos: Position<Russian> = fen.parse().unwrap();
        let (code, out) = probe_fen(tb, fen);
        assert_eq!(code, DAMKA_OK, "{fen}: {}", last_error());
        let value = direct.probe_value(pos).unwrap();
        let wdl = [(Wdl::Loss, -1), (Wdl::Draw, 0), (Wdl::Win, 1)]
            .iter()
            .find(|(w, _)| *w == value.wdl())
            .unwrap()
            .1;
        assert_eq!(
            (out.wdl, out.dtw),
            (wdl, value.dtw().map_or(0, i32::from)),
            "{fen}"
        );
        let best = direct.best_move(pos).unwrap().map(|mv| notation(&pos, &mv));
        assert_eq!(text(&out.best_move), best.unwrap_or_default(), "{fen}");
    }
    // R2 curses this win in 3 plies once 4.5 of its 5 moves are played.
    let (code, out) = probe_rules(tb, "W:WKa1,Kc3:BKh8", "russian", "R2=4");
    assert_eq!(
        (code, out.value, text(&out.rule)),
        (DAMKA_OK, 2, String::new())
    );
    assert!(out.distance > 0 && !text(&out.best_move).is_empty());
    let (code, out) = probe_rules(tb, "W:WKa1,Kc3:BKh8", "russian", "R2=4.5");
    assert_eq!(
        (code, out.value, text(&out.rule), out.distance),
        (DAMKA_OK, 1, "R2".to_string(), 0)
    );
    // SAFETY: a live handle, a string, NULL played and a result.
    let code = unsafe {
        let mut out = out;
        damka_probe_rules_fen(
            tb,
            c"W:WKc1:BKh2".as_ptr(),
            c"russian".as_ptr(),
            null(),
            &mut out,
        )
    };
    assert_eq!(code, DAMKA_OK);
    // SAFETY: the handle is not used after this.
    unsafe { damka_close(tb) };
}

#[test]
fn bad_input_gets_its_own_code_and_a_message() {
    let dir = tables();
    let tb = open(dir.path());
    let cases: [(&str, i32, &str); 5] = [
        ("W:Wz9:Bh8", DAMKA_ERR_BAD_FEN, "unknown square"),
        ("", DAMKA_ERR_BAD_FEN, "FEN"),
        (
            "W:WKa1:B",
            DAMKA_ERR_IMPOSSIBLE_POSITION,
            "invalid position",
        ),
        ("W:WKa1,Kc1,Ke1:BKh2", DAMKA_ERR_NOT_COVERED, "4 pieces"),
        ("W:WKa1,Kc1,Ke1:BKh2,Kh8", DAMKA_ERR_NOT_COVERED, "5 pieces"),
    ];
    for (fen, code, message) in cases {
        assert_eq!(probe_fen(tb, fen).0, code, "{fen}");
        assert!(last_error().contains(message), "{fen}: {}", last_error());
    }
    let mut out = probe_fen(tb, "W:WKc1:BKh2").1;
    // SAFETY: NULL and bad pointers are what is tested; the rest are valid.
    unsafe {
        assert_eq!(
            damka_probe_fen(null_mut(), c"W:WKc1:BKh2".as_ptr(), &mut out),
            DAMKA_ERR_BAD_ARGUMENT
        );
        assert_eq!(
            damka_probe_fen(tb, null(), &mut out),
            DAMKA_ERR_BAD_ARGUMENT
        );
        assert_eq!(
            damka_probe_fen(tb, c"W:WKc1:BKh2".as_ptr(), null_mut()),
            DAMKA_ERR_BAD_ARGUMENT
        );
        assert!(last_error().contains("out is NULL"));
        assert_eq!(
            damka_probe_fen(tb, c"W:WKc\xff1:BKh2".as_ptr(), &mut out),
            DAMKA_ERR_BAD_ARGUMENT
        );
        assert_eq!(damka_max_pieces(null()), DAMKA_ERR_BAD_ARGUMENT);
        // A white man and a white king on a1; a bit past square 32.
        assert_eq!(
            damka_probe_bits(tb, 1, 1, 0, 1 << 31, 1, &mut out),
            DAMKA_ERR_IMPOSSIBLE_POSITION
        );
        assert_eq!(
            damka_probe_bits(tb, 0, 1 << 40, 0, 1 << 31, 1, &mut out),
            DAMKA_ERR_IMPOSSIBLE_POSITION
        );
        assert_eq!(
            damka_probe_bits(tb, 0, 1, 0, 1 << 31, 1, null_mut()),
            DAMKA_ERR_BAD_ARGUMENT
        );
        let mut wdl = 7;
        assert_eq!(
            damka_probe_wdl_bits(tb, 0, 1 << 1, 0, 1 << 7, 1, &mut wdl),
            DAMKA_OK
        );
        assert_eq!(wdl, probe_fen(tb, "W:WKc1:BKh2").1.wdl);
        assert_eq!(
            damka_probe_wdl_bits(tb, 0, 1, 0, 1 << 31, 1, null_mut()),
            DAMKA_ERR_BAD_ARGUMENT
        );
        // The unchanged result after all these failures.
        assert_eq!(out.wdl, 0);
    }
    let rules = [
        (
            "W:WKa1,Kc3:BKh8",
            "chess",
            "",
            DAMKA_ERR_BAD_RULE_SET,
            "chess",
        ),
        (
            "W:WKa1,Kc3:BKh8",
            "russian",
            "R9=1",
            DAMKA_ERR_BAD_PLAYED,
            "R9",
        ),
        (
            "W:WKa1,Kc3:BKh8",
            "russian",
            "R2=4.25",
            DAMKA_ERR_BAD_PLAYED,
            "R2",
        ),
        (
            "W:Wc3:Bf6",
            "russian",
            "R2=1",
            DAMKA_ERR_BAD_PLAYED,
            "not in force",
        ),
        ("W:Wz9:Bh8", "russian", "", DAMKA_ERR_BAD_FEN, "z9"),
    ];
    for (fen, set, played, code, message) in rules {
        assert_eq!(
            probe_rules(tb, fen, set, played).0,
            code,
            "{fen} {set} {played}"
        );
        assert!(last_error().contains(message), "{}", last_error());
    }
    // SAFETY: the handle is not used after this.
    unsafe { damka_close(tb) };
}

#[test]
fn missing_and_damaged_tables_are_errors() {
    let dir = tables();
    let mut err = [1 as c_char; 12];
    // SAFETY: a 12-byte buffer (the message is cut to fit) and NULL arguments.
    unsafe {
        let tb = damka_open(
            c"/no/such/dir".as_ptr(),
            c"russian".as_ptr(),
            err.as_mut_ptr(),
            err.len(),
        );
        assert!(tb.is_null());
        assert_eq!(text(&err), "no russian ");
        assert!(last_error().contains("/no/such/dir"), "{}", last_error());
        let root = CString::new(dir.path().to_str().unwrap()).unwrap();
        assert!(damka_open(root.as_ptr(), c"chess".as_ptr(), null_mut(), 0).is_null());
        assert!(last_error().contains("unknown variant"), "{}", last_error());
        assert!(damka_open(null(), c"russian".as_ptr(), null_mut(), 0).is_null());
        assert!(damka_open(root.as_ptr(), c"international".as_ptr(), null_mut(), 0).is_null());
        assert!(
            last_error().contains("no international tables"),
            "{}",
            last_error()
        );
        damka_close(null_mut());
    }
    let russian = dir.path().join("russian");
    std::fs::remove_file(russian.join("0M2K-0M1K.dtw.dkt")).unwrap();
    let corrupt = russian.join("1M1K-0M1K.dtw.dkt");
    let bytes = std::fs::read(&corrupt).unwrap();
    std::fs::write(&corrupt, &bytes[..bytes.len() / 2]).unwrap();
    let tb = open(dir.path());
    assert_eq!(probe_fen(tb, "W:WKa1,Kc3:BKh8").0, DAMKA_ERR_MISSING_TABLE);
    assert!(last_error().contains("0M2K-0M1K"), "{}", last_error());
    assert_eq!(probe_fen(tb, "W:WKa1,c3:BKh8").0, DAMKA_ERR_CORRUPT_TABLE);
    assert!(last_error().contains("1M1K-0M1K"), "{}", last_error());
    // SAFETY: the handle is not used after this.
    unsafe { damka_close(tb) };
}

#[test]
fn codes_have_names() {
    // SAFETY: damka_strerror returns static NUL-terminated strings.
    let name = |code| {
        unsafe { CStr::from_ptr(damka_strerror(code)) }
            .to_str()
            .unwrap()
    };
    assert_eq!(name(DAMKA_ERR_BAD_FEN), "bad FEN");
    assert_eq!(name(DAMKA_ERR_MISSING_TABLE), "missing table");
    assert_eq!(name(12345), "unknown error code");
}

#[test]
fn probe_bits_allocates_no_more_than_the_probe() {
    let dir = tables();
    let tb = open(dir.path());
    let direct = Tablebase::<Russian>::open(dir.path()).unwrap();
    // White kings a1 and c3 (bits 0 and 9) against a black king on h8 (bit 31);
    // White men g3 and h2 (bits 11 and 7) against a black man on f2 (bit 6).
    let cases: [(u64, u64, u64, u64, &str); 2] = [
        (0, 1 | 1 << 9, 0, 1 << 31, "W:WKa1,Kc3:BKh8"),
        (1 << 11 | 1 << 7, 0, 1 << 6, 0, "W:Wg3,h2:Bf2"),
    ];
    for (wm, wk, bm, bk, fen) in cases {
        let pos: Position<Russian> = fen.parse().unwrap();
        let mut out = probe_fen(tb, fen).1;
        let mut by_bits = || {
            // SAFETY: a live handle and a result.
            let code = unsafe { damka_probe_bits(tb, wm, wk, bm, bk, 1, &mut out) };
            assert_eq!(code, DAMKA_OK);
        };
        let by_api = || {
            direct.probe_value(pos).unwrap();
            direct.best_move(pos).unwrap();
        };
        // Warm both caches, then count.
        by_bits();
        by_api();
        assert_eq!(allocations(&mut by_bits), allocations(by_api), "{fen}");
        let mut wdl = 0;
        // SAFETY: a live handle and an int.
        let mut wdl_only = || {
            assert_eq!(
                unsafe { damka_probe_wdl_bits(tb, wm, wk, bm, bk, 1, &mut wdl) },
                0
            )
        };
        assert_eq!(
            allocations(&mut wdl_only),
            allocations(|| {
                direct.probe_wdl(pos).unwrap();
            }),
            "{fen}"
        );
    }
    // SAFETY: the handle is not used after this.
    unsafe { damka_close(tb) };
}
