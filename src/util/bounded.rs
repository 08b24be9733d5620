//! Reading a file deckbox did not write, safely: only a regular file (a named pipe would
//! block forever without a writer, a device such as `/dev/zero` never ends), and never more
//! than a bound the caller names. Every file the tool reads goes through [`read`]: deck
//! lists, format and config files, card data and the index cache.
//!
//! The kind is checked on the path (symbolic links followed) before opening, so a named
//! pipe is never opened, and again on the opened handle, so a file swapped in between is
//! still caught before a byte is read. The bound is enforced while reading, not trusted
//! from the size the file claims.

use std::fs::{File, FileType, Metadata};
use std::io::{self, Read};
use std::path::Path;

/// The contents of the regular file at `path`, at most `limit` bytes. An error says what
/// the path is when it is no regular file (`it is a named pipe, not a file`), or that the
/// file is larger than the limit.
pub fn read(path: &Path, limit: u64) -> io::Result<Vec<u8>> {
    let (file, metadata) = open(path)?;
    if metadata.len() > limit {
        return Err(too_large(limit));
    }
    let mut bytes = Vec::with_capacity(usize::try_from(metadata.len()).unwrap_or(0));
    file.take(limit.saturating_add(1)).read_to_end(&mut bytes)?;
    if bytes.len() as u64 > limit {
        return Err(too_large(limit));
    }
    Ok(bytes)
}

/// The regular file at `path`, opened for reading, with its metadata: the kind is checked
/// on the path before opening (a named pipe with no writer would block the open forever)
/// and again on the handle. For a reader that streams a file it bounds itself.
pub fn open(path: &Path) -> io::Result<(File, Metadata)> {
    regular(&std::fs::metadata(path)?)?;
    let file = File::open(path)?;
    let metadata = file.metadata()?;
    regular(&metadata)?;
    Ok((file, metadata))
}

/// [`read`], as UTF-8 text.
pub fn read_to_string(path: &Path, limit: u64) -> io::Result<String> {
    String::from_utf8(read(path, limit)?)
        .map_err(|error| io::Error::new(io::ErrorKind::InvalidData, error))
}

/// The objects and array elements of a JSON text, near enough: every `{` and `,` outside
/// strings. One pass, nothing allocated; counted before a file deckbox did not write is
/// parsed, since a parser keeps far more per element than the 3 bytes of `{},`.
pub fn json_values(text: &[u8]) -> usize {
    let mut values = 0;
    let mut in_string = false;
    let mut escaped = false;
    for &byte in text {
        match (in_string, byte) {
            (true, _) if escaped => escaped = false,
            (true, b'\\') => escaped = true,
            (_, b'"') => in_string = !in_string,
            (false, b'{' | b',') => values += 1,
            _ => {}
        }
    }
    values
}

/// `Ok` for a regular file, else an error naming what it is.
fn regular(metadata: &Metadata) -> io::Result<()> {
    if metadata.is_file() {
        return Ok(());
    }
    Err(io::Error::new(
        io::ErrorKind::InvalidInput,
        format!("it is {}, not a file", kind(&metadata.file_type())),
    ))
}

fn too_large(limit: u64) -> io::Error {
    io::Error::new(
        io::ErrorKind::InvalidData,
        format!("it is larger than {}", human_size(limit)),
    )
}

/// `8 MiB`, `512 KiB`, `100 bytes`.
fn human_size(bytes: u64) -> String {
    match bytes {
        b if b >= 1 << 20 && b % (1 << 20) == 0 => format!("{} MiB", b >> 20),
        b if b >= 1 << 10 && b % (1 << 10) == 0 => format!("{} KiB", b >> 10),
        b => format!("{b} bytes"),
    }
}

/// What a file that is not regular is, in words.
pub fn kind(kind: &FileType) -> &'static str {
    #[cfg(unix)]
    {
        use std::os::unix::fs::FileTypeExt;
        if kind.is_fifo() {
            return "a named pipe";
        }
        if kind.is_socket() {
            return "a socket";
        }
        if kind.is_char_device() || kind.is_block_device() {
            return "a device";
        }
    }
    if kind.is_dir() {
        "a directory"
    } else {
        "a special file"
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn reads_a_regular_file_within_its_bound() {
        let dir = tempfile::tempdir().unwrap();
        let path = dir.path().join("deck.txt");
        std::fs::write(&path, "4 Iono\n").unwrap();
        assert_eq!(read_to_string(&path, 7).unwrap(), "4 Iono\n");
        let error = read(&path, 6).unwrap_err().to_string();
        assert_eq!(error, "it is larger than 6 bytes");
    }

    #[test]
    fn refuses_directories_and_devices() {
        let dir = tempfile::tempdir().unwrap();
        let error = read(dir.path(), 1 << 20).unwrap_err().to_string();
        assert_eq!(error, "it is a directory, not a file");
        #[cfg(unix)]
        if Path::new("/dev/zero").exists() {
            let error = read(Path::new("/dev/zero"), 1 << 20)
                .unwrap_err()
                .to_string();
            assert_eq!(error, "it is a device, not a file");
            let link = dir.path().join("zero.toml");
            std::os::unix::fs::symlink("/dev/zero", &link).unwrap();
            assert!(read(&link, 1 << 20).is_err());
        }
    }

    #[test]
    fn json_values_skip_strings() {
        assert_eq!(json_values(br#"[{}, {"a,{": "\",{"}, 1]"#), 4);
        assert_eq!(json_values(b"[[[[1]]]]"), 0);
    }

    #[test]
    fn sizes_read_as_people_write_them() {
        assert_eq!(human_size(8 << 20), "8 MiB");
        assert_eq!(human_size(512 << 10), "512 KiB");
        assert_eq!(human_size(100), "100 bytes");
    }
}
