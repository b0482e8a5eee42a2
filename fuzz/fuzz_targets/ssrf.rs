#![no_main]

libfuzzer_sys::fuzz_target!(|data: &[u8]| clawpolicy::fuzzing::ssrf(data));
