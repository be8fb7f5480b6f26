use super::*;
use std::io::Write;

/// A `.tar.gz` whose entries are written header by header, so names and kinds the tar crate's
/// own builder would refuse (`..`, absolute paths) can be made.
fn tar_gz(entries: &[(&str, tar::EntryType, &[u8])]) -> Vec<u8> {
    let gz = flate2::write::GzEncoder::new(Vec::new(), flate2::Compression::fast());
    let mut tar = tar::Builder::new(gz);
    for (name, kind, bytes) in entries {
        let mut header = tar::Header::new_gnu();
        let field = &mut header.as_old_mut().name;
        field[..name.len()].copy_from_slice(name.as_bytes());
        header.set_entry_type(*kind);
        header.set_size(bytes.len() as u64);
        header.set_mode(0o644);
        if kind.is_symlink() || kind.is_hard_link() {
            header.set_link_name("/etc/passwd").unwrap();
        }
        header.set_cksum();
        tar.append(&header, *bytes).unwrap();
    }
    tar.into_inner().unwrap().finish().unwrap()
}

fn file<'a>(name: &'a str, bytes: &'static [u8]) -> (&'a str, tar::EntryType, &'static [u8]) {
    (name, tar::EntryType::Regular, bytes)
}

fn zip_of(build: impl FnOnce(&mut zip::ZipWriter<std::io::Cursor<Vec<u8>>>)) -> Vec<u8> {
    let mut zip = zip::ZipWriter::new(std::io::Cursor::new(Vec::new()));
    build(&mut zip);
    zip.finish().unwrap().into_inner()
}

fn deflated() -> zip::write::SimpleFileOptions {
    zip::write::SimpleFileOptions::default().compression_method(zip::CompressionMethod::Deflated)
}

fn small() -> Limits {
    Limits {
        total_bytes: 64 << 10,
        file_bytes: 16 << 10,
        entries: 8,
        ..Limits::default()
    }
}

#[test]
fn a_folder_packs_and_unpacks_to_the_same_files_and_hash() {
    let dir = tempfile::tempdir().unwrap();
    std::fs::create_dir_all(dir.path().join("wrong")).unwrap();
    std::fs::write(dir.path().join("kata.toml"), "slug = \"x\"\n").unwrap();
    std::fs::write(dir.path().join("README.md"), "# X\n").unwrap();
    std::fs::write(dir.path().join("wrong/off_by_one.rs"), "fn f() {}\n").unwrap();
    let files = PackageFiles::read_dir(dir.path(), &Limits::default()).unwrap();
    let again = PackageFiles::unpack(&files.to_tar_gz(), &Limits::default()).unwrap();
    assert_eq!(files, again);
    assert_eq!(
        again.content_hash(),
        crate::package_hash::content_hash(dir.path()).unwrap()
    );
    assert_eq!(
        again.grading_hash(),
        crate::package_hash::grading_hash(dir.path()).unwrap()
    );
    assert_eq!(again.text("wrong/off_by_one.rs"), Some("fn f() {}\n"));
}

#[test]
fn one_top_folder_is_the_package_root() {
    let archive = tar_gz(&[
        ("my-kata/", tar::EntryType::Directory, b""),
        file("my-kata/kata.toml", b"a"),
        file("my-kata/wrong/a.rs", b"b"),
    ]);
    let files = PackageFiles::unpack(&archive, &Limits::default()).unwrap();
    assert_eq!(
        files.names().collect::<Vec<_>>(),
        ["kata.toml", "wrong/a.rs"]
    );
    let zip = zip_of(|z| {
        z.start_file("my-kata/kata.toml", deflated()).unwrap();
        z.write_all(b"a").unwrap();
    });
    let files = PackageFiles::unpack(&zip, &Limits::default()).unwrap();
    assert_eq!(files.names().collect::<Vec<_>>(), ["kata.toml"]);
}

#[test]
fn names_that_leave_the_package_are_refused() {
    for name in ["../kata.toml", "/etc/kata.toml", "a/../../b", "a\\..\\b"] {
        let err = PackageFiles::unpack(&tar_gz(&[file(name, b"x")]), &Limits::default());
        assert_eq!(
            err,
            Err(ArchiveError::UnsafePath { name: name.into() }),
            "{name}"
        );
        let zip = zip_of(|z| {
            z.start_file(name, deflated()).unwrap();
            z.write_all(b"x").unwrap();
        });
        assert!(
            matches!(
                PackageFiles::unpack(&zip, &Limits::default()),
                Err(ArchiveError::UnsafePath { .. })
            ),
            "zip {name}"
        );
    }
}

#[test]
fn links_and_device_files_are_refused() {
    for (kind, word) in [
        (tar::EntryType::Symlink, "symbolic link"),
        (tar::EntryType::Link, "hard link"),
        (tar::EntryType::Char, "device file"),
        (tar::EntryType::Block, "device file"),
        (tar::EntryType::Fifo, "named pipe"),
    ] {
        let archive = tar_gz(&[file("kata.toml", b"a"), ("secret", kind, b"")]);
        assert_eq!(
            PackageFiles::unpack(&archive, &Limits::default()),
            Err(ArchiveError::NotPlainFile {
                name: "secret".into(),
                kind: word
            })
        );
    }
    let zip = zip_of(|z| {
        z.add_symlink("secret", "/etc/passwd", deflated()).unwrap();
    });
    assert!(matches!(
        PackageFiles::unpack(&zip, &Limits::default()),
        Err(ArchiveError::NotPlainFile {
            kind: "symbolic link",
            ..
        })
    ));
}

#[cfg(unix)]
#[test]
fn a_folder_with_a_link_is_refused() {
    let dir = tempfile::tempdir().unwrap();
    std::fs::write(dir.path().join("kata.toml"), "").unwrap();
    std::os::unix::fs::symlink("/etc/passwd", dir.path().join("reference.rs")).unwrap();
    assert!(matches!(
        PackageFiles::read_dir(dir.path(), &Limits::default()),
        Err(ArchiveError::NotPlainFile { .. })
    ));
}

#[test]
fn bombs_stop_at_the_limits_whatever_they_declare() {
    // 1 MiB of zeros compresses to about a kilobyte.
    let zeros: &'static [u8] = Box::leak(vec![0u8; 1 << 20].into_boxed_slice());
    let gz = tar_gz(&[file("big.bin", zeros)]);
    assert!(gz.len() < 8 << 10, "{}", gz.len());
    assert_eq!(
        PackageFiles::unpack(&gz, &small()),
        Err(ArchiveError::FileTooLarge {
            name: "big.bin".into(),
            limit: 16 << 10
        })
    );
    let many_small: Vec<_> = ["a", "b", "c", "d", "e"]
        .iter()
        .map(|n| file(n, &zeros[..15 << 10]))
        .collect();
    assert_eq!(
        PackageFiles::unpack(&tar_gz(&many_small), &small()),
        Err(ArchiveError::TotalTooLarge { limit: 64 << 10 })
    );
    let zip = zip_of(|z| {
        z.start_file("big.bin", deflated()).unwrap();
        z.write_all(zeros).unwrap();
    });
    assert!(matches!(
        PackageFiles::unpack(&zip, &small()),
        Err(ArchiveError::FileTooLarge { .. })
    ));
}

#[test]
fn counts_names_and_formats_are_bounded() {
    let names: Vec<String> = (0..9).map(|i| format!("f{i}")).collect();
    let entries: Vec<_> = names.iter().map(|n| file(n, b"x")).collect();
    assert_eq!(
        PackageFiles::unpack(&tar_gz(&entries), &small()),
        Err(ArchiveError::TooManyEntries { limit: 8 })
    );
    let deep = "a/".repeat(10) + "f";
    assert!(matches!(
        PackageFiles::unpack(&tar_gz(&[file(&deep, b"x")]), &small()),
        Err(ArchiveError::TooDeep { .. })
    ));
    assert_eq!(
        PackageFiles::unpack(&tar_gz(&[file("a", b"1"), file("./a", b"2")]), &small()),
        Err(ArchiveError::Duplicate { name: "a".into() })
    );
    assert_eq!(
        PackageFiles::unpack(b"# README\n", &small()),
        Err(ArchiveError::NotAnArchive)
    );
    assert!(matches!(
        PackageFiles::unpack(&[0x1f, 0x8b, 0, 1, 2], &small()),
        Err(ArchiveError::Corrupt(_))
    ));
    let limits = Limits {
        archive_bytes: 10,
        ..small()
    };
    assert!(matches!(
        PackageFiles::unpack(&tar_gz(&[file("a", b"1")]), &limits),
        Err(ArchiveError::ArchiveTooLarge { .. })
    ));
    assert_eq!(
        PackageFiles::unpack(&tar_gz(&[("d/", tar::EntryType::Directory, b"")]), &small()),
        Err(ArchiveError::Empty)
    );
}

#[test]
fn every_refusal_has_chinese_words() {
    let errors = [
        ArchiveError::NotAnArchive,
        ArchiveError::UnsafePath { name: "..".into() },
        ArchiveError::NotPlainFile {
            name: "x".into(),
            kind: "symbolic link",
        },
        ArchiveError::TotalTooLarge { limit: 1 },
        ArchiveError::Empty,
    ];
    for e in errors {
        assert!(!e.zh().is_empty() && e.zh() != e.to_string());
    }
}
