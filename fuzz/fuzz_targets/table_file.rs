//! Feeds arbitrary bytes to the table file parser: header, layout and every block
//! must be rejected or decoded, never panic. Start from real tables for a useful
//! corpus: `cargo fuzz run table_file corpus/ ../tables/russian/`.
#![no_main]

use damka_formats::table::TableHeader;
use libfuzzer_sys::fuzz_target;

fuzz_target!(|bytes: &[u8]| {
    let Ok(header) = TableHeader::decode(bytes) else {
        return;
    };
    if header.check_layout(bytes).is_err() {
        return;
    }
    for block in 0..header.blocks().min(1 << 12) {
        if let Ok(decoded) = header.decode_block(bytes, block) {
            for local in 0..header.entries_in(block) {
                let _ = decoded.wdl(local);
                let _ = decoded.value(local);
            }
        }
    }
    let _ = header.check_all(bytes);
});
