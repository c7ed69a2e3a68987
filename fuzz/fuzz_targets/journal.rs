//! The journal reader, on any bytes a file could hold: it never panics; what it takes for a
//! journal reads back the same when written out again, and only an unfinished last line is
//! ever left out of it (the only bytes a run may cut).
#![no_main]

use interview_host::internals::journal::{Contents, encode, read};
use libfuzzer_sys::fuzz_target;

fuzz_target!(|bytes: &[u8]| {
    match read(bytes) {
        Ok(Contents::Empty) => assert!(bytes.is_empty()),
        Ok(Contents::TornHeader(torn)) => {
            assert_eq!(torn, bytes);
            assert!(!bytes.contains(&b'\n'));
        }
        Ok(Contents::Written {
            header,
            entries,
            complete,
        }) => {
            assert!(complete <= bytes.len());
            assert_eq!(bytes[complete - 1], b'\n');
            assert!(
                !bytes[complete..].contains(&b'\n'),
                "a whole line would be cut"
            );
            let again = encode(&header, &entries);
            match read(&again) {
                Ok(Contents::Written {
                    header: h,
                    entries: e,
                    complete: c,
                }) => {
                    assert_eq!((h, e, c), (header, entries, again.len()));
                }
                other => panic!("written out again, it reads as {other:?}"),
            }
        }
        Err(_) => {}
    }
});
