//! libFuzzer's entry for `ledger_fuzz_targets::rules_sequence`; the checks live there (fuzz/targets/).
#![no_main]

libfuzzer_sys::fuzz_target!(|data: &[u8]| ledger_fuzz_targets::rules_sequence(data));
