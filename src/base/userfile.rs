//! Reading a file a user named (config, include, suite, scenario, approvals, suppressions, plugin
//! list, probe list), with limits that hold whatever the file is.
//!
//! * The byte cap is enforced while reading (`Read::take`), never by trusting the size the
//!   filesystem reports: `/proc` files report 0 bytes and devices never end.
//! * Only regular files are read, checked before opening: opening a FIFO blocks until a writer
//!   comes, and a device may never end. The one exception is a pipe named through `/dev/stdin`,
//!   `/dev/fd/N` or `/proc/self/fd/N` (`--config <(…)`, `--config /dev/stdin`): the shell
//!   created it with a writer, so it is read like a file, with the same cap. A regular file is
//!   opened without blocking and checked again, so swapping in a FIFO after the check does not
//!   hang either.

use std::fs::{File, FileType, OpenOptions};
use std::io::{BufRead, Read};
use std::path::Path;

/// Cap for inputs other than config files (suites, scenarios, approvals, lists).
pub const MAX_INPUT_BYTES: u64 = 16 * 1024 * 1024;

/// Why a file could not be read.
#[derive(Debug, thiserror::Error)]
pub enum ReadError {
    #[error("{0}")]
    Io(#[from] std::io::Error),
    #[error("not a regular file (it is {0}); only regular files are read")]
    NotRegular(&'static str),
    #[error("larger than {0} bytes")]
    TooLarge(u64),
}

/// Opens the regular file (or process pipe) at `path` for reading, refusing anything else
/// before it could block.
pub fn open(path: &Path) -> Result<File, ReadError> {
    let file_type = std::fs::metadata(path)?.file_type();
    if file_type.is_file() {
        let file = open_without_blocking(path)?;
        let opened = file.metadata()?.file_type();
        if !opened.is_file() {
            return Err(ReadError::NotRegular(describe(&opened)));
        }
        Ok(file)
    } else if is_fifo(&file_type) && is_process_pipe(path) {
        Ok(File::open(path)?)
    } else {
        Err(ReadError::NotRegular(describe(&file_type)))
    }
}

/// Fails unless `path` is a regular file, for files another library opens (SQLite).
pub fn ensure_regular_file(path: &Path) -> Result<(), ReadError> {
    let file_type = std::fs::metadata(path)?.file_type();
    if file_type.is_file() { Ok(()) } else { Err(ReadError::NotRegular(describe(&file_type))) }
}

/// Reads at most `limit` bytes of the regular file (or process pipe) at `path`.
pub fn read(path: &Path, limit: u64) -> Result<Vec<u8>, ReadError> {
    let mut bytes = Vec::new();
    open(path)?.take(limit.saturating_add(1)).read_to_end(&mut bytes)?;
    if bytes.len() as u64 > limit {
        return Err(ReadError::TooLarge(limit));
    }
    Ok(bytes)
}

/// Reads one line (with its `\n`) of at most `limit` bytes into `line`; a longer line is consumed
/// to its end and reported as [`ReadError::TooLarge`]. `Ok(false)` at the end of the input.
pub fn read_line(reader: &mut impl BufRead, line: &mut Vec<u8>, limit: u64) -> Result<bool, ReadError> {
    line.clear();
    let read = reader.by_ref().take(limit.saturating_add(1)).read_until(b'\n', line)?;
    if read == 0 {
        return Ok(false);
    }
    if line.len() as u64 > limit {
        // Skip the rest of the line without holding it.
        while !line.ends_with(b"\n") {
            line.clear();
            if reader.by_ref().take(64 * 1024).read_until(b'\n', line)? == 0 {
                break;
            }
        }
        line.clear();
        return Err(ReadError::TooLarge(limit));
    }
    Ok(true)
}

/// [`read`], as UTF-8 text.
pub fn read_text(path: &Path, limit: u64) -> Result<String, ReadError> {
    String::from_utf8(read(path, limit)?).map_err(|_| {
        ReadError::Io(std::io::Error::new(std::io::ErrorKind::InvalidData, "stream did not contain valid UTF-8"))
    })
}

/// Whether `path` names an inherited descriptor or standard input, where a pipe comes from the
/// shell (process substitution, `… | clawpolicy --config /dev/stdin`).
fn is_process_pipe(path: &Path) -> bool {
    path == Path::new("/dev/stdin") || path.starts_with("/dev/fd") || path.starts_with("/proc/self/fd")
}

#[cfg(unix)]
fn open_without_blocking(path: &Path) -> std::io::Result<File> {
    use std::os::unix::fs::OpenOptionsExt;
    OpenOptions::new().read(true).custom_flags(libc::O_NONBLOCK).open(path)
}

#[cfg(not(unix))]
fn open_without_blocking(path: &Path) -> std::io::Result<File> {
    OpenOptions::new().read(true).open(path)
}

#[cfg(unix)]
fn is_fifo(file_type: &FileType) -> bool {
    std::os::unix::fs::FileTypeExt::is_fifo(file_type)
}

#[cfg(not(unix))]
fn is_fifo(_: &FileType) -> bool {
    false
}

fn describe(file_type: &FileType) -> &'static str {
    #[cfg(unix)]
    {
        use std::os::unix::fs::FileTypeExt;
        if file_type.is_fifo() {
            return "a FIFO";
        }
        if file_type.is_char_device() {
            return "a character device";
        }
        if file_type.is_block_device() {
            return "a block device";
        }
        if file_type.is_socket() {
            return "a socket";
        }
    }
    if file_type.is_dir() { "a directory" } else { "not a regular file" }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn the_cap_holds_whatever_size_is_reported() {
        let dir = tempfile::tempdir().unwrap();
        let path = dir.path().join("f");
        std::fs::write(&path, "abcdef").unwrap();
        assert_eq!(read(&path, 6).unwrap(), b"abcdef");
        assert!(matches!(read(&path, 5), Err(ReadError::TooLarge(5))));
        // /proc files report a size of 0 but have content.
        if Path::new("/proc/self/status").exists() {
            assert!(matches!(read(Path::new("/proc/self/status"), 10), Err(ReadError::TooLarge(10))));
        }
    }

    #[cfg(unix)]
    #[test]
    fn devices_fifos_and_directories_are_refused_without_blocking() {
        let dir = tempfile::tempdir().unwrap();
        let fifo = dir.path().join("fifo");
        assert!(std::process::Command::new("mkfifo").arg(&fifo).status().unwrap().success());
        assert!(matches!(read(&fifo, 10), Err(ReadError::NotRegular("a FIFO"))));
        assert!(matches!(read(Path::new("/dev/zero"), 10), Err(ReadError::NotRegular("a character device"))));
        assert!(matches!(read(dir.path(), 10), Err(ReadError::NotRegular("a directory"))));
    }

    #[test]
    fn long_lines_are_skipped_not_held() {
        let input = format!("short\n{}\nnext", "x".repeat(1000));
        let mut reader = std::io::BufReader::new(input.as_bytes());
        let mut line = Vec::new();
        assert!(read_line(&mut reader, &mut line, 100).unwrap());
        assert_eq!(line, b"short\n");
        assert!(matches!(read_line(&mut reader, &mut line, 100), Err(ReadError::TooLarge(100))));
        assert!(read_line(&mut reader, &mut line, 100).unwrap());
        assert_eq!(line, b"next");
        assert!(!read_line(&mut reader, &mut line, 100).unwrap());
    }

    #[cfg(unix)]
    #[test]
    fn process_pipes_are_read_with_the_cap() {
        use std::io::Write;
        let mut child = std::process::Command::new("cat")
            .stdin(std::process::Stdio::piped())
            .stdout(std::process::Stdio::piped())
            .spawn()
            .unwrap();
        child.stdin.take().unwrap().write_all(b"{a: 1}").unwrap();
        let stdout = child.stdout.take().unwrap();
        let fd = std::os::fd::AsRawFd::as_raw_fd(&stdout);
        assert_eq!(read(Path::new(&format!("/dev/fd/{fd}")), 100).unwrap(), b"{a: 1}");
        child.wait().unwrap();
    }
}
