//! `binform`: look inside binform payloads without their Rust types.
//!
//! ```text
//! binform inspect FILE [--schema LOCKFILE] [--json]   the value, as a tree or JSON
//! binform schema FILE                                 the embedded schema (lock-file text)
//! binform to-json FILE [--schema LOCKFILE]            the value as JSON
//! binform from-json --schema LOCKFILE IN.json -o OUT  JSON to a self-describing payload
//! binform check FILE --schema LOCKFILE                whether the payload fits the lock file
//! ```
//!
//! A self-describing payload (written with `Options::self_describing`)
//! carries its schema; a plain one is read with `--schema`, a lock file
//! as `binform::schema::assert_compatible` writes them. Errors are one
//! line on stderr with the byte offset and field path, and exit code 1;
//! nothing is written on error.

mod json;

use std::path::{Path, PathBuf};
use std::process::ExitCode;

use binform::schema::Schema;
use binform::{Error, Value};
use clap::{Parser, Subcommand};

#[derive(Parser)]
#[command(
    name = "binform",
    version,
    about = "Inspect, convert and check binform payloads"
)]
struct Cli {
    #[command(subcommand)]
    command: Command,
}

#[derive(Subcommand)]
enum Command {
    /// Show the value of a payload, as an indented tree or as JSON.
    Inspect {
        /// The payload.
        file: PathBuf,
        /// A lock file with the schema of a plain (not self-describing) payload.
        #[arg(long)]
        schema: Option<PathBuf>,
        /// Print JSON instead of the tree.
        #[arg(long)]
        json: bool,
        /// The plain payload is in the fixed layout (`Options::fixed_width`);
        /// a self-describing payload's header says its layout.
        #[arg(long)]
        fixed: bool,
    },
    /// Print the schema a self-describing payload carries (lock-file text).
    Schema {
        /// The payload.
        file: PathBuf,
    },
    /// Print the value of a payload as JSON.
    ToJson {
        /// The payload.
        file: PathBuf,
        /// A lock file with the schema of a plain payload.
        #[arg(long)]
        schema: Option<PathBuf>,
        /// The plain payload is in the fixed layout (`Options::fixed_width`);
        /// a self-describing payload's header says its layout.
        #[arg(long)]
        fixed: bool,
    },
    /// Write JSON (as `to-json` prints it) as a self-describing payload.
    FromJson {
        /// The lock file with the value's schema.
        #[arg(long)]
        schema: PathBuf,
        /// The JSON file.
        input: PathBuf,
        /// Where to write the payload.
        #[arg(short, long)]
        output: PathBuf,
        /// Write the fixed layout (`Options::fixed_width`) instead of the
        /// compact one; the header records it.
        #[arg(long)]
        fixed: bool,
    },
    /// Check that a payload fits a lock file's schema.
    Check {
        /// The payload.
        file: PathBuf,
        /// The lock file.
        #[arg(long)]
        schema: PathBuf,
        /// The plain payload is in the fixed layout (`Options::fixed_width`);
        /// a self-describing payload's header says its layout.
        #[arg(long)]
        fixed: bool,
    },
}

/// A failure, as the one line the tool prints.
struct Failure(String);

impl From<Error> for Failure {
    fn from(e: Error) -> Self {
        Failure(e.to_string())
    }
}

fn read(path: &Path) -> Result<Vec<u8>, Failure> {
    std::fs::read(path).map_err(|e| Failure(format!("cannot read {}: {e}", path.display())))
}

fn lock(path: &Path) -> Result<Schema, Failure> {
    let bytes = read(path)?;
    let text = String::from_utf8(bytes).map_err(|_| {
        Failure(format!(
            "{} is not a lock file (not UTF-8 text)",
            path.display()
        ))
    })?;
    binform::schema::parse(&text)
        .map_err(|e| Failure(format!("{} is not a lock file: {e}", path.display())))
}

/// The document in `file`: self-describing (in the layout its header
/// states), or plain with `schema` (in the fixed layout if `fixed`); and
/// how many bytes were read.
fn document(file: &Path, schema: Option<&Path>, fixed: bool) -> Result<(Value, usize), Failure> {
    let bytes = read(file)?;
    let value = match schema {
        Some(lock_path) => {
            let schema = lock(lock_path)?;
            // A plain payload may start with `BFS` by chance: it is
            // self-describing only if its header holds a schema that
            // hashes to the fingerprint beside it.
            if binform::schema::read_schema(&bytes).is_ok() {
                check_fits(&bytes, &schema)?
            } else if fixed {
                let options = binform::Options::new().fixed_width();
                binform::value::from_slice_with_options(&schema, &bytes, &options)?
            } else {
                binform::value::from_slice_with(&schema, &bytes)?
            }
        }
        None => binform::value::from_slice(&bytes).map_err(|e| {
            if bytes.starts_with(&binform::schema::SELF_DESCRIBING_MAGIC[..3]) {
                Failure::from(e)
            } else {
                Failure(format!(
                    "{} is not a self-describing binform payload ({e}); give its schema with --schema",
                    file.display()
                ))
            }
        })?,
    };
    Ok((value, bytes.len()))
}

/// A self-describing payload read against a lock file: the schemas must
/// be the same type (fingerprint), then the body is read with the lock's.
fn check_fits(bytes: &[u8], schema: &Schema) -> Result<Value, Failure> {
    let embedded = binform::schema::read_schema(bytes)?;
    let ours = binform::schema::fingerprint(schema);
    let theirs = binform::schema::fingerprint(&embedded);
    if ours != theirs {
        let problems = binform::schema::compare(schema, &embedded);
        let detail = match problems.first() {
            Some(first) => format!(": {first}"),
            None => String::new(),
        };
        return Err(Failure(format!(
            "the payload's schema ({theirs:#018x}) is not the lock file's ({ours:#018x}){detail}"
        )));
    }
    Ok(binform::value::from_slice(bytes)?)
}

/// Prints to stdout; a closed pipe (`| head`) is an error, not a panic.
fn out(text: impl std::fmt::Display) -> Result<(), Failure> {
    use std::io::Write;
    let mut stdout = std::io::stdout().lock();
    writeln!(stdout, "{text}")
        .and_then(|()| stdout.flush())
        .map_err(|e| Failure(format!("cannot write the output: {e}")))
}

fn run(cli: Cli) -> Result<(), Failure> {
    match cli.command {
        Command::Inspect {
            file,
            schema,
            json,
            fixed,
        } => {
            let (doc, read) = document(&file, schema.as_deref(), fixed)?;
            if json {
                out(json_text(&doc, read)?)?;
            } else {
                out(&doc)?;
            }
        }
        Command::Schema { file } => {
            let schema = binform::schema::read_schema(&read(&file)?)?;
            out(schema.to_string().trim_end())?;
        }
        Command::ToJson {
            file,
            schema,
            fixed,
        } => {
            let (doc, read) = document(&file, schema.as_deref(), fixed)?;
            out(json_text(&doc, read)?)?;
        }
        Command::FromJson {
            schema,
            input,
            output,
            fixed,
        } => {
            let schema = lock(&schema)?;
            let text = read(&input)?;
            let parsed: serde_json::Value = serde_json::from_slice(&text)
                .map_err(|e| Failure(format!("{} is not JSON: {e}", input.display())))?;
            let doc = binform::value::conform(&schema, &json::from_json(&parsed))?;
            let bytes = if fixed {
                binform::value::to_vec_options(&doc, &binform::Options::new().fixed_width())?
            } else {
                binform::value::to_vec(&doc)?
            };
            // All or nothing: a temporary file beside the output, renamed.
            let mut partial = output.clone().into_os_string();
            partial.push(".partial");
            let partial = PathBuf::from(partial);
            std::fs::write(&partial, bytes)
                .and_then(|()| std::fs::rename(&partial, &output))
                .map_err(|e| {
                    let _ = std::fs::remove_file(&partial);
                    Failure(format!("cannot write {}: {e}", output.display()))
                })?;
        }
        Command::Check {
            file,
            schema,
            fixed,
        } => {
            let (doc, _) = document(&file, Some(&schema), fixed)?;
            let name = match doc.root() {
                Value::Struct { name, .. } | Value::Variant { name, .. } => name.clone(),
                _ => "value".to_string(),
            };
            out(format_args!(
                "ok: {} fits {} ({name})",
                file.display(),
                schema.display()
            ))?;
        }
    }
    Ok(())
}

/// The document as JSON, at most [`JSON_BASE`] plus [`JSON_PER_BYTE`]
/// bytes per byte `read`: a payload cannot make the tool print (or
/// buffer) without bound.
fn json_text(doc: &Value, read: usize) -> Result<String, Failure> {
    let limit = JSON_BASE.saturating_add(read.saturating_mul(JSON_PER_BYTE));
    let bytes = json::write(doc, limit).map_err(Failure)?;
    String::from_utf8(bytes).map_err(|e| Failure(format!("cannot print JSON: {e}")))
}

/// JSON output may take this many bytes…
const JSON_BASE: usize = 16 << 20;
/// …plus this many per input byte: a byte of bools (bits, format §27)
/// prints eight `false` on lines of their own, indented at most 32
/// spaces (8 × 39 bytes).
const JSON_PER_BYTE: usize = 512;

/// One line, whatever the message held: line breaks become spaces and
/// other control characters are escaped (names come from payloads).
fn one_line(message: &str) -> String {
    message
        .chars()
        .map(|c| match c {
            '\n' | '\r' | '\t' => " ".to_string(),
            c if c.is_control() => c.escape_default().to_string(),
            c => c.to_string(),
        })
        .collect()
}

fn main() -> ExitCode {
    let cli = match Cli::try_parse() {
        Ok(cli) => cli,
        // `--help` and `--version` print as clap formats them.
        Err(e) if !e.use_stderr() => {
            let _ = e.print();
            return ExitCode::SUCCESS;
        }
        Err(e) => {
            let text = e.to_string();
            let first = text.lines().next().unwrap_or("invalid arguments");
            let first = first.strip_prefix("error: ").unwrap_or(first);
            eprintln!("binform: error: {} (see binform --help)", one_line(first));
            return ExitCode::from(1);
        }
    };
    match run(cli) {
        Ok(()) => ExitCode::SUCCESS,
        Err(Failure(message)) => {
            eprintln!("binform: error: {}", one_line(&message));
            ExitCode::from(1)
        }
    }
}
