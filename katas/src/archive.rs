//! A kata package as uploaded: the files of a `.tar.gz` or `.zip`, read into memory with every
//! bound checked while reading, never trusting what the archive declares.
//!
//! An archive is the instructor's data, and the service unpacks it, so every entry is judged
//! before its bytes count: only plain files and folders, names of plain components (no `..`,
//! no absolute path, no drive or prefix), no links or device files, no name twice, and limits
//! on entries, depth, each file and the total that hold however well the archive compresses
//! (a zip bomb stops at the total). Nothing is written to disk here; [`PackageFiles::write_into`]
//! writes the checked names under a folder of the caller's.

use crate::package_hash::{STATEMENT_FILES, hash_files};
use std::collections::BTreeMap;
use std::io::Read;
use std::path::{Component, Path};

/// Bounds on an uploaded package.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub struct Limits {
    /// The archive as sent.
    pub archive_bytes: usize,
    /// All files together, unpacked.
    pub total_bytes: u64,
    pub file_bytes: u64,
    /// Files and folders.
    pub entries: usize,
    /// Folders from the package root to a file.
    pub depth: usize,
    pub name_bytes: usize,
}

impl Default for Limits {
    fn default() -> Self {
        // The largest built-in package (gpu-ring-allreduce) is ~120 KiB in ~15 files: these
        // leave room for data-heavy katas and stop anything that is not a package.
        Self {
            archive_bytes: 4 << 20,
            total_bytes: 8 << 20,
            file_bytes: 2 << 20,
            entries: 512,
            depth: 8,
            name_bytes: 255,
        }
    }
}

#[derive(Debug, thiserror::Error, PartialEq, Eq)]
pub enum ArchiveError {
    #[error("the upload is not a .tar.gz or .zip archive")]
    NotAnArchive,
    #[error("the archive cannot be read: {0}")]
    Corrupt(String),
    #[error("the archive is {size} bytes; a package archive may be at most {limit}")]
    ArchiveTooLarge { size: usize, limit: usize },
    #[error("`{name}` is not a plain relative path inside the package (`..`, `/` or a drive)")]
    UnsafePath { name: String },
    #[error("`{name}` is a {kind}: a package holds only plain files and folders")]
    NotPlainFile { name: String, kind: &'static str },
    #[error("`{name}` is in the archive twice")]
    Duplicate { name: String },
    #[error("`{name}` is larger than {limit} bytes unpacked")]
    FileTooLarge { name: String, limit: u64 },
    #[error("the files unpack to more than {limit} bytes")]
    TotalTooLarge { limit: u64 },
    #[error("the archive has more than {limit} entries")]
    TooManyEntries { limit: usize },
    #[error("`{name}` is more than {limit} folders deep, or its name is too long")]
    TooDeep { name: String, limit: usize },
    #[error("the archive holds no files")]
    Empty,
}

impl ArchiveError {
    /// The same refusal in Chinese, for the upload page.
    pub fn zh(&self) -> String {
        match self {
            Self::NotAnArchive => "上传的文件不是 .tar.gz 或 .zip 压缩包".into(),
            Self::Corrupt(e) => format!("压缩包无法读取：{e}"),
            Self::ArchiveTooLarge { size, limit } => {
                format!("压缩包有 {size} 字节，题目包最多 {limit} 字节")
            }
            Self::UnsafePath { name } => {
                format!("`{name}` 不是题目包内的普通相对路径（含 `..`、`/` 或盘符）")
            }
            Self::NotPlainFile { name, kind } => {
                format!(
                    "`{name}` 是{}：题目包只能包含普通文件和文件夹",
                    kind_zh(kind)
                )
            }
            Self::Duplicate { name } => format!("`{name}` 在压缩包中出现了两次"),
            Self::FileTooLarge { name, limit } => format!("`{name}` 解压后超过 {limit} 字节"),
            Self::TotalTooLarge { limit } => format!("全部文件解压后超过 {limit} 字节"),
            Self::TooManyEntries { limit } => format!("压缩包的条目超过 {limit} 个"),
            Self::TooDeep { name, limit } => {
                format!("`{name}` 的文件夹层级超过 {limit} 层，或名字过长")
            }
            Self::Empty => "压缩包里没有文件".into(),
        }
    }
}

fn kind_zh(kind: &str) -> &'static str {
    match kind {
        "symbolic link" => "符号链接",
        "hard link" => "硬链接",
        "device file" => "设备文件",
        "named pipe" => "命名管道",
        _ => "特殊文件",
    }
}

/// A package's files by `/`-separated relative name; every name passed [`checked_name`].
#[derive(Debug, Clone, Default, PartialEq, Eq)]
pub struct PackageFiles {
    files: BTreeMap<String, Vec<u8>>,
}

impl PackageFiles {
    /// Reads a `.tar.gz` or `.zip` (told apart by their first bytes). When every entry sits in
    /// one top folder (`tar czf kata.tar.gz my-kata/`), that folder is the package root.
    pub fn unpack(archive: &[u8], limits: &Limits) -> Result<Self, ArchiveError> {
        if archive.len() > limits.archive_bytes {
            return Err(ArchiveError::ArchiveTooLarge {
                size: archive.len(),
                limit: limits.archive_bytes,
            });
        }
        let mut reading = Reading::new(limits);
        if archive.starts_with(&[0x1f, 0x8b]) {
            read_tar_gz(archive, &mut reading)?;
        } else if archive.starts_with(b"PK\x03\x04") || archive.starts_with(b"PK\x05\x06") {
            read_zip(archive, &mut reading)?;
        } else {
            return Err(ArchiveError::NotAnArchive);
        }
        reading.finish()
    }

    /// Files already in memory (a package embedded in the build), under the same checks as an
    /// upload's.
    pub fn from_entries<'a>(
        entries: impl IntoIterator<Item = (&'a str, &'a [u8])>,
        limits: &Limits,
    ) -> Result<Self, ArchiveError> {
        let mut reading = Reading::new(limits);
        for (name, bytes) in entries {
            reading.file(name, bytes)?;
        }
        reading.finish()
    }

    /// The plain files under `dir` (links and special files refused), under the same limits.
    pub fn read_dir(dir: &Path, limits: &Limits) -> Result<Self, ArchiveError> {
        let mut reading = Reading::new(limits);
        let mut pending = vec![dir.to_path_buf()];
        while let Some(folder) = pending.pop() {
            let entries = std::fs::read_dir(&folder).map_err(|e| corrupt(&folder, e))?;
            for entry in entries {
                let path = entry.map_err(|e| corrupt(&folder, e))?.path();
                let name = path
                    .strip_prefix(dir)
                    .unwrap_or(&path)
                    .components()
                    .map(|c| c.as_os_str().to_string_lossy())
                    .collect::<Vec<_>>()
                    .join("/");
                let kind = std::fs::symlink_metadata(&path)
                    .map_err(|e| corrupt(&path, e))?
                    .file_type();
                if kind.is_dir() {
                    reading.folder(&name)?;
                    pending.push(path);
                } else if kind.is_file() {
                    let file = std::fs::File::open(&path).map_err(|e| corrupt(&path, e))?;
                    reading.file(&name, file)?;
                } else {
                    let kind = if kind.is_symlink() {
                        "symbolic link"
                    } else {
                        "special file"
                    };
                    return Err(ArchiveError::NotPlainFile { name, kind });
                }
            }
        }
        reading.finish()
    }

    /// The files as a `.tar.gz` (sorted names, no owners or times: the same files pack alike).
    pub fn to_tar_gz(&self) -> Vec<u8> {
        let gz = flate2::write::GzEncoder::new(Vec::new(), flate2::Compression::default());
        let mut tar = tar::Builder::new(gz);
        for (name, bytes) in &self.files {
            let mut header = tar::Header::new_ustar();
            header.set_size(bytes.len() as u64);
            header.set_mode(0o644);
            header.set_entry_type(tar::EntryType::Regular);
            // Names were checked on the way in; writing to memory cannot fail otherwise.
            tar.append_data(&mut header, name, bytes.as_slice())
                .expect("appending to an in-memory tar");
        }
        tar.into_inner()
            .and_then(|gz| gz.finish())
            .expect("finishing an in-memory tar.gz")
    }

    pub fn get(&self, name: &str) -> Option<&[u8]> {
        self.files.get(name).map(Vec::as_slice)
    }

    /// The file `name` as UTF-8 text, if it is there and is text.
    pub fn text(&self, name: &str) -> Option<&str> {
        self.get(name).and_then(|b| std::str::from_utf8(b).ok())
    }

    pub fn names(&self) -> impl Iterator<Item = &str> {
        self.files.keys().map(String::as_str)
    }

    /// [`crate::package_hash::content_hash`] of these files: the same as the folder they came from.
    pub fn content_hash(&self) -> String {
        hash_files(self.files.iter().map(|(n, b)| (n.as_str(), b.as_slice())))
    }

    /// [`crate::package_hash::grading_hash`] of these files.
    pub fn grading_hash(&self) -> String {
        hash_files(
            self.files
                .iter()
                .filter(|(n, _)| !STATEMENT_FILES.contains(&n.as_str()))
                .map(|(n, b)| (n.as_str(), b.as_slice())),
        )
    }

    /// Writes the files under `dir`, which should be empty (a fresh temporary folder).
    pub fn write_into(&self, dir: &Path) -> std::io::Result<()> {
        for (name, bytes) in &self.files {
            let path = dir.join(name);
            if let Some(parent) = path.parent() {
                std::fs::create_dir_all(parent)?;
            }
            std::fs::write(path, bytes)?;
        }
        Ok(())
    }
}

fn corrupt(path: &Path, e: std::io::Error) -> ArchiveError {
    ArchiveError::Corrupt(format!("{}: {e}", path.display()))
}

/// The entries read so far and the budgets left.
struct Reading<'l> {
    limits: &'l Limits,
    files: BTreeMap<String, Vec<u8>>,
    folders: std::collections::BTreeSet<String>,
    entries: usize,
    total: u64,
}

impl<'l> Reading<'l> {
    fn new(limits: &'l Limits) -> Self {
        Self {
            limits,
            files: BTreeMap::new(),
            folders: Default::default(),
            entries: 0,
            total: 0,
        }
    }

    fn count(&mut self) -> Result<(), ArchiveError> {
        self.entries += 1;
        if self.entries > self.limits.entries {
            return Err(ArchiveError::TooManyEntries {
                limit: self.limits.entries,
            });
        }
        Ok(())
    }

    fn folder(&mut self, raw: &str) -> Result<(), ArchiveError> {
        self.count()?;
        if let Some(name) = checked_name(raw, self.limits)? {
            self.folders.insert(name);
        }
        Ok(())
    }

    /// Reads one file's bytes, never more than the file and total budgets allow.
    fn file(&mut self, raw: &str, content: impl Read) -> Result<(), ArchiveError> {
        self.count()?;
        let Some(name) = checked_name(raw, self.limits)? else {
            return Err(ArchiveError::UnsafePath {
                name: raw.to_string(),
            });
        };
        if self.files.contains_key(&name) {
            return Err(ArchiveError::Duplicate { name });
        }
        let left = self.limits.total_bytes - self.total;
        let cap = self.limits.file_bytes.min(left);
        let mut bytes = Vec::new();
        content
            .take(cap + 1)
            .read_to_end(&mut bytes)
            .map_err(|e| ArchiveError::Corrupt(format!("`{name}`: {e}")))?;
        if bytes.len() as u64 > cap {
            return Err(if cap == self.limits.file_bytes {
                ArchiveError::FileTooLarge {
                    name,
                    limit: self.limits.file_bytes,
                }
            } else {
                ArchiveError::TotalTooLarge {
                    limit: self.limits.total_bytes,
                }
            });
        }
        self.total += bytes.len() as u64;
        self.files.insert(name, bytes);
        Ok(())
    }

    fn finish(self) -> Result<PackageFiles, ArchiveError> {
        if self.files.is_empty() {
            return Err(ArchiveError::Empty);
        }
        if let Some(name) = self.files.keys().find(|f| self.folders.contains(*f)) {
            return Err(ArchiveError::Duplicate { name: name.clone() });
        }
        Ok(PackageFiles {
            files: strip_common_folder(self.files),
        })
    }
}

/// `raw` as a clean `/`-separated relative name; `None` for the root itself (`./`).
fn checked_name(raw: &str, limits: &Limits) -> Result<Option<String>, ArchiveError> {
    let unsafe_path = || ArchiveError::UnsafePath {
        name: raw.to_string(),
    };
    if raw.contains('\\') || raw.contains('\0') {
        return Err(unsafe_path());
    }
    let mut parts = Vec::new();
    for component in Path::new(raw).components() {
        match component {
            Component::Normal(part) => parts.push(part.to_str().ok_or_else(unsafe_path)?),
            Component::CurDir => {}
            Component::ParentDir | Component::RootDir | Component::Prefix(_) => {
                return Err(unsafe_path());
            }
        }
    }
    if parts.is_empty() {
        return Ok(None);
    }
    let name = parts.join("/");
    if parts.len() > limits.depth + 1 || name.len() > limits.name_bytes {
        return Err(ArchiveError::TooDeep {
            name,
            limit: limits.depth,
        });
    }
    Ok(Some(name))
}

/// Drops a folder every file sits in, so a package archived with its folder reads the same.
fn strip_common_folder(files: BTreeMap<String, Vec<u8>>) -> BTreeMap<String, Vec<u8>> {
    let top = |name: &str| name.split_once('/').map(|(top, _)| top.to_string());
    let Some(first) = files.keys().next().and_then(|n| top(n)) else {
        return files;
    };
    if !files
        .keys()
        .all(|n| top(n).as_deref() == Some(first.as_str()))
    {
        return files;
    }
    files
        .into_iter()
        .map(|(name, bytes)| (name[first.len() + 1..].to_string(), bytes))
        .collect()
}

fn read_tar_gz(archive: &[u8], reading: &mut Reading<'_>) -> Result<(), ArchiveError> {
    let corrupt = |e: std::io::Error| ArchiveError::Corrupt(e.to_string());
    let mut tar = tar::Archive::new(flate2::read::GzDecoder::new(archive));
    for entry in tar.entries().map_err(corrupt)? {
        let entry = entry.map_err(corrupt)?;
        let name = String::from_utf8_lossy(&entry.path_bytes()).into_owned();
        let kind = entry.header().entry_type();
        if kind.is_file() || kind.is_contiguous() {
            reading.file(&name, entry)?;
        } else if kind.is_dir() {
            reading.folder(&name)?;
        } else if kind.is_pax_global_extensions() {
            // Metadata for the entries that follow (tar writers add it); no file of its own.
        } else {
            let kind = if kind.is_symlink() {
                "symbolic link"
            } else if kind.is_hard_link() {
                "hard link"
            } else if kind.is_character_special() || kind.is_block_special() {
                "device file"
            } else if kind.is_fifo() {
                "named pipe"
            } else {
                "special file"
            };
            return Err(ArchiveError::NotPlainFile { name, kind });
        }
    }
    Ok(())
}

fn read_zip(archive: &[u8], reading: &mut Reading<'_>) -> Result<(), ArchiveError> {
    let corrupt = |e: zip::result::ZipError| ArchiveError::Corrupt(e.to_string());
    let mut zip = zip::ZipArchive::new(std::io::Cursor::new(archive)).map_err(corrupt)?;
    if zip.len() > reading.limits.entries {
        return Err(ArchiveError::TooManyEntries {
            limit: reading.limits.entries,
        });
    }
    for index in 0..zip.len() {
        let entry = zip.by_index(index).map_err(corrupt)?;
        let name = entry.name().map_err(corrupt)?.into_owned();
        // The Unix type bits, where the zip recorded them: only plain files and folders.
        const TYPE_BITS: u32 = 0o170000;
        let unix_type = entry.unix_mode().map(|m| m & TYPE_BITS);
        match unix_type {
            None | Some(0) | Some(0o100000) | Some(0o040000) => {}
            Some(0o120000) => {
                return Err(ArchiveError::NotPlainFile {
                    name,
                    kind: "symbolic link",
                });
            }
            Some(0o020000) | Some(0o060000) => {
                return Err(ArchiveError::NotPlainFile {
                    name,
                    kind: "device file",
                });
            }
            Some(0o010000) => {
                return Err(ArchiveError::NotPlainFile {
                    name,
                    kind: "named pipe",
                });
            }
            Some(_) => {
                return Err(ArchiveError::NotPlainFile {
                    name,
                    kind: "special file",
                });
            }
        }
        if entry.is_dir() {
            reading.folder(&name)?;
        } else {
            reading.file(&name, entry)?;
        }
    }
    Ok(())
}

#[cfg(test)]
#[path = "archive_tests.rs"]
mod tests;
