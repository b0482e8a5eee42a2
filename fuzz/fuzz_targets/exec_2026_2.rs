#![no_main]

libfuzzer_sys::fuzz_target!(|data: &[u8]| clawpolicy::fuzzing::exec_2026_2(data));
