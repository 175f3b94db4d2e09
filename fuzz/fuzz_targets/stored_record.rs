//! libFuzzer's entry for `ledger_fuzz_targets::stored_record`; the checks live there (fuzz/targets/).
#![no_main]

libfuzzer_sys::fuzz_target!(|data: &[u8]| ledger_fuzz_targets::stored_record(data));
