#![no_main]

libfuzzer_sys::fuzz_target!(|data: &[u8]| clawpolicy::fuzzing::secrets_mask(data));
