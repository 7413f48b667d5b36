//! Turns the latest criterion run of the suite into `docs/benchmarks.md`
//! and `docs/benchmarks.svg`.
//!
//! Run after the suite: `cargo run -p binform-benches --example report`.
//! Times are criterion's median estimates; every ratio compares crates
//! measured in the same run.

use std::collections::BTreeMap;
use std::fmt::Write as _;
use std::path::{Path, PathBuf};

use serde_json::Value;

/// Peers in table order, binform first.
const CRATES: &[&str] = &[
    "binform",
    "binform_fixed",
    "bitcode",
    "wincode",
    "speedy",
    "bincode",
    "postcard",
    "rkyv",
    "rmp_serde",
    "serde_json",
    "memcpy",
];
/// binform's own reference forms, timed in the same group as the form they
/// are compared with (tables only, not the plot).
const BASELINES: &[&str] = &[
    "binform_serde",
    "binform_compact",
    "binform_tree",
    "binform_complete_tree",
];
/// The peers binform must match or beat outright.
const MUST_BEAT: &[&str] = &["bincode", "postcard", "rmp_serde", "serde_json"];
/// Every peer crate (the suite's crates but binform's two layouts and the
/// memcpy baseline): "the fastest peer" is the fastest of these.
const PEERS: &[&str] = CRATES.split_at(2).1.split_at(CRATES.len() - 3).0;
/// Workloads held to 1.2x the fastest peer in both directions.
const STRUCTURED: &[&str] = &[
    "people",
    "kate_1_card",
    "kate_10k_cards",
    "large_object",
    "large_struct",
    "small_message",
    "primitives",
    "log",
    "minecraft_savedata",
    "mk48",
];
/// Workloads held to the memcpy bar (1.1x).
const BULK: &[&str] = &["f64_100k", "mesh", "bytes_1mib"];
/// Workloads the fixed layout holds to the memcpy bar (1.1x): its plain
/// sequences, integers among them.
const FIXED_BULK: &[&str] = &[
    "f64_100k",
    "mesh",
    "bytes_1mib",
    "i32_full_100k",
    "i32_small_100k",
    "i32_mixed_100k",
];

/// Integer-sequence workloads: 1.3x the fastest peer, and no larger than
/// postcard or 1.01x bitcode.
fn is_integer_workload(workload: &str) -> bool {
    ["i32_", "u64_", "i128_"]
        .iter()
        .any(|p| workload.starts_with(p))
}

/// The fastest peer's time for a workload and direction.
fn fastest_peer(t: &BTreeMap<(String, String), f64>, dir: &str) -> Option<(f64, &'static str)> {
    PEERS
        .iter()
        .filter_map(|k| t.get(&(dir.to_string(), k.to_string())).map(|&v| (v, *k)))
        .min_by(|a, b| a.0.total_cmp(&b.0))
}
const COLORS: &[&str] = &[
    "#d62728", "#ff9896", "#1f77b4", "#2ca02c", "#9467bd", "#ff7f0e", "#8c564b", "#e377c2",
    "#7f7f7f", "#17becf", "#bcbd22",
];

/// Medians in nanoseconds: workload -> (direction, crate) -> time.
type Times = BTreeMap<String, BTreeMap<(String, String), f64>>;
/// Sizes in bytes: workload -> crate -> bytes.
type Sizes = BTreeMap<String, BTreeMap<String, usize>>;

fn read_json(path: &Path) -> Option<Value> {
    serde_json::from_str(&std::fs::read_to_string(path).ok()?).ok()
}

fn load_times(criterion: &Path) -> Times {
    let mut times = Times::new();
    let Ok(groups) = std::fs::read_dir(criterion) else {
        return times;
    };
    for group in groups.flatten() {
        let Ok(benches) = std::fs::read_dir(group.path()) else {
            continue;
        };
        for bench in benches.flatten() {
            let new = bench.path().join("new");
            let (Some(meta), Some(est)) = (
                read_json(&new.join("benchmark.json")),
                read_json(&new.join("estimates.json")),
            ) else {
                continue;
            };
            let (Some(group_id), Some(function_id), Some(median)) = (
                meta["group_id"].as_str(),
                meta["function_id"].as_str(),
                est["median"]["point_estimate"].as_f64(),
            ) else {
                continue;
            };
            let Some((direction, krate)) = function_id.split_once('/') else {
                continue;
            };
            times
                .entry(group_id.to_string())
                .or_default()
                .insert((direction.to_string(), krate.to_string()), median);
        }
    }
    times
}

fn load_sizes(path: &Path) -> Sizes {
    let mut sizes = Sizes::new();
    let text = std::fs::read_to_string(path).unwrap_or_default();
    for line in text.lines().skip(1) {
        let cols: Vec<&str> = line.split('\t').collect();
        if let [workload, krate, bytes] = cols[..] {
            if let Ok(bytes) = bytes.parse() {
                sizes
                    .entry(workload.to_string())
                    .or_default()
                    .insert(krate.to_string(), bytes);
            }
        }
    }
    sizes
}

fn fmt_time(ns: f64) -> String {
    if ns < 1e3 {
        format!("{ns:.0} ns")
    } else if ns < 1e6 {
        format!("{:.2} µs", ns / 1e3)
    } else {
        format!("{:.2} ms", ns / 1e6)
    }
}

fn machine() -> String {
    let cpu = std::fs::read_to_string("/proc/cpuinfo")
        .ok()
        .and_then(|s| {
            s.lines()
                .find(|l| l.starts_with("model name"))
                .and_then(|l| l.split(':').nth(1))
                .map(|m| m.trim().to_string())
        })
        .unwrap_or_else(|| "unknown CPU".into());
    let cores = std::thread::available_parallelism()
        .map(|n| n.get())
        .unwrap_or(1);
    let rustc = std::process::Command::new("rustc")
        .arg("--version")
        .output()
        .ok()
        .map(|o| String::from_utf8_lossy(&o.stdout).trim().to_string())
        .unwrap_or_default();
    format!("{cpu}, {cores} cores; {rustc}")
}

/// One verdict line of the bar.
struct Check {
    workload: String,
    what: String,
    ok: bool,
}

fn checks(times: &Times, sizes: &Sizes) -> Vec<Check> {
    let mut out = Vec::new();
    for (workload, t) in times {
        for dir in ["serialize", "deserialize"] {
            let Some(&ours) = t.get(&(dir.to_string(), "binform".to_string())) else {
                continue;
            };
            let best = MUST_BEAT
                .iter()
                .filter_map(|k| t.get(&(dir.to_string(), k.to_string())).map(|&v| (v, *k)))
                .min_by(|a, b| a.0.total_cmp(&b.0));
            if let Some((v, k)) = best {
                out.push(Check {
                    workload: workload.clone(),
                    what: format!(
                        "{dir}: {:.2}x the fastest of bincode/postcard/rmp/json ({k})",
                        ours / v
                    ),
                    ok: ours <= v * 1.02,
                });
            }
            let bar = if is_integer_workload(workload) {
                Some(1.3)
            } else if STRUCTURED.contains(&workload.as_str()) {
                Some(1.2)
            } else {
                None
            };
            if let (Some(bar), Some((v, k))) = (bar, fastest_peer(t, dir)) {
                out.push(Check {
                    workload: workload.clone(),
                    what: format!("{dir}: {:.2}x the fastest peer ({k}); bar {bar}x", ours / v),
                    ok: ours <= v * bar,
                });
            }
            if BULK.contains(&workload.as_str()) {
                if let Some(&m) = t.get(&(dir.to_string(), "memcpy".to_string())) {
                    out.push(Check {
                        workload: workload.clone(),
                        what: format!("{dir}: {:.2}x memcpy", ours / m),
                        ok: ours <= m * 1.1,
                    });
                }
            }
        }
        if let Some(s) = sizes.get(workload) {
            if let (Some(&ours), Some(&pc)) = (s.get("binform"), s.get("postcard")) {
                out.push(Check {
                    workload: workload.clone(),
                    what: format!("size: {ours} bytes vs postcard {pc}"),
                    ok: ours <= pc,
                });
            }
            if let (true, Some(&ours), Some(&bc)) = (
                is_integer_workload(workload),
                s.get("binform"),
                s.get("bitcode"),
            ) {
                out.push(Check {
                    workload: workload.clone(),
                    what: format!("size: {:.4}x bitcode", ours as f64 / bc as f64),
                    ok: ours as f64 <= bc as f64 * 1.01,
                });
            }
        }
    }
    out.extend(fixed_checks(times, sizes));
    // Version tolerance: within 1.3x of the compact form, timed in the
    // same group.
    for tolerant in ["people_tolerant", "large_struct_tolerant"] {
        if let Some(times) = times.get(tolerant) {
            for dir in ["serialize", "deserialize"] {
                let key = (dir.to_string(), "binform".to_string());
                let compact = (dir.to_string(), "binform_compact".to_string());
                if let (Some(t), Some(c)) = (times.get(&key), times.get(&compact)) {
                    out.push(Check {
                        workload: tolerant.into(),
                        what: format!("{dir}: {:.2}x the compact form", t / c),
                        ok: *t <= c * 1.3,
                    });
                }
            }
        }
    }
    // Reference tracking: the DAG within 2x of the same node count written
    // as a tree, timed in the same group: the tree with the DAG's layout
    // (what tracking costs), and the inline complete tree (tracking plus
    // the DAG's scattered memory).
    if let Some(graph) = times.get("graph_dag_100k") {
        for (tree, label) in [
            ("binform_tree", "the tree of the same nodes and layout"),
            ("binform_complete_tree", "an inline complete binary tree"),
        ] {
            for dir in ["serialize", "deserialize"] {
                let key = (dir.to_string(), "binform".to_string());
                let tree_key = (dir.to_string(), tree.to_string());
                if let (Some(d), Some(t)) = (graph.get(&key), graph.get(&tree_key)) {
                    out.push(Check {
                        workload: "graph_dag_100k".into(),
                        what: format!("{dir}: {:.2}x {label}", d / t),
                        ok: *d <= t * 2.0,
                    });
                }
            }
        }
    }
    out
}

/// The fixed layout's bar (issue 31): on every workload the peers ran,
/// each direction within 1.2x of the fastest peer and the size no larger
/// than the smaller of speedy's and wincode's; the bulk workloads within
/// 1.1x of memcpy.
fn fixed_checks(times: &Times, sizes: &Sizes) -> Vec<Check> {
    let mut out = Vec::new();
    for (workload, t) in times {
        for dir in ["serialize", "deserialize"] {
            let Some(&ours) = t.get(&(dir.to_string(), "binform_fixed".to_string())) else {
                continue;
            };
            if let Some((v, k)) = fastest_peer(t, dir) {
                out.push(Check {
                    workload: workload.clone(),
                    what: format!(
                        "fixed {dir}: {:.2}x the fastest peer ({k}); bar 1.2x",
                        ours / v
                    ),
                    ok: ours <= v * 1.2,
                });
            }
            if FIXED_BULK.contains(&workload.as_str()) {
                if let Some(&m) = t.get(&(dir.to_string(), "memcpy".to_string())) {
                    out.push(Check {
                        workload: workload.clone(),
                        what: format!("fixed {dir}: {:.2}x memcpy", ours / m),
                        ok: ours <= m * 1.1,
                    });
                }
            }
        }
        let Some(s) = sizes.get(workload) else {
            continue;
        };
        let smaller = ["speedy", "wincode"]
            .iter()
            .filter_map(|k| s.get(*k).map(|&v| (v, *k)))
            .min();
        if let (Some(&ours), Some((v, k))) = (s.get("binform_fixed"), smaller) {
            out.push(Check {
                workload: workload.clone(),
                what: format!("fixed size: {ours} bytes vs {k} {v}"),
                ok: ours <= v,
            });
        }
    }
    out
}

/// A geometric mean and how many workloads it covers, for encode, decode
/// and size.
type Means = [Option<(f64, usize)>; 3];

/// Per crate, the geometric mean over the suite's shared workloads of its
/// ratio to the best crate (encode, decode, size): 1.00 is first
/// everywhere. Workloads where only binform ran (graphs, tolerant forms,
/// frames) do not count, nor does the memcpy baseline.
fn geomeans(times: &Times, sizes: &Sizes) -> Vec<(&'static str, Means)> {
    let crates: Vec<&'static str> = ["binform", "binform_fixed"]
        .into_iter()
        .chain(PEERS.iter().copied())
        .collect();
    let mut logs: BTreeMap<&str, [(f64, usize); 3]> = BTreeMap::new();
    for (workload, t) in times {
        for (i, dir) in ["serialize", "deserialize"].into_iter().enumerate() {
            let present: Vec<(&str, f64)> = crates
                .iter()
                .filter_map(|k| t.get(&(dir.to_string(), k.to_string())).map(|&v| (*k, v)))
                .collect();
            if present.len() < 3 {
                continue;
            }
            let best = present.iter().map(|p| p.1).fold(f64::INFINITY, f64::min);
            for (k, v) in present {
                let e = &mut logs.entry(k).or_default()[i];
                e.0 += (v / best).ln();
                e.1 += 1;
            }
        }
        if let Some(s) = sizes.get(workload) {
            let present: Vec<(&str, f64)> = crates
                .iter()
                .filter_map(|k| s.get(*k).map(|&v| (*k, v as f64)))
                .collect();
            if present.len() >= 3 && t.keys().any(|(d, _)| d == "serialize") {
                let best = present.iter().map(|p| p.1).fold(f64::INFINITY, f64::min);
                for (k, v) in present {
                    let e = &mut logs.entry(k).or_default()[2];
                    e.0 += (v / best).ln();
                    e.1 += 1;
                }
            }
        }
    }
    crates
        .into_iter()
        .map(|k| {
            let l = logs.get(k).copied().unwrap_or_default();
            (
                k,
                l.map(|(sum, n)| (n > 0).then(|| ((sum / n as f64).exp(), n))),
            )
        })
        .collect()
}

fn markdown(times: &Times, sizes: &Sizes, checks: &[Check]) -> String {
    let mut md = String::new();
    let date = std::process::Command::new("date")
        .arg("-u")
        .arg("+%Y-%m-%d")
        .output()
        .map(|o| String::from_utf8_lossy(&o.stdout).trim().to_string())
        .unwrap_or_default();
    let _ = writeln!(md, "# binform benchmarks\n");
    let _ = writeln!(
        md,
        "Geometric mean over the suite of each crate's ratio to the best crate of each workload \
         (1.00 = first everywhere; encode into a reused buffer, decode to an owned value, \
         encoded size):\n"
    );
    let _ = writeln!(md, "| crate | encode | decode | size |");
    let _ = writeln!(md, "|---|---:|---:|---:|");
    for (krate, means) in geomeans(times, sizes) {
        let cell = |m: Option<(f64, usize)>| {
            m.map(|(g, n)| format!("{g:.2} ({n})"))
                .unwrap_or_else(|| "–".into())
        };
        let _ = writeln!(
            md,
            "| {krate} | {} | {} | {} |",
            cell(means[0]),
            cell(means[1]),
            cell(means[2])
        );
    }
    let _ = writeln!(
        md,
        "\n(In parentheses: how many workloads the mean covers; a crate that cannot encode a \
         workload is left out of it.)\n"
    );
    let _ = writeln!(
        md,
        "Generated by `cargo run -p binform-benches --example report` on {date} from the latest \
         `cargo bench -p binform-benches` results of each group (all crates of a group always \
         run together, so every ratio compares one run).\n\nMachine: {}.\n",
        machine()
    );
    let _ = writeln!(
        md,
        "Times are criterion medians; every crate ran in the same run on the same data. \
         Ratios are to binform (below 1.00 means faster or smaller than binform). Encoders \
         write into a reused buffer where the crate allows it. rkyv deserializes to a full \
         owned value (with validation). Timings on a shared 2-core machine are noisy: treat \
         differences under ~10% as ties.\n"
    );
    let _ = writeln!(md, "![time relative to binform](benchmarks.svg)\n");

    let passed = checks.iter().filter(|c| c.ok).count();
    let _ = writeln!(
        md,
        "## The bar\n\n{passed} of {} checks pass.\n",
        checks.len()
    );
    let failing: Vec<&Check> = checks.iter().filter(|c| !c.ok).collect();
    if failing.is_empty() {
        let _ = writeln!(md, "Every check passes.\n");
    } else {
        let _ = writeln!(md, "Not yet met:\n");
        for c in failing {
            let _ = writeln!(md, "- `{}`: {}", c.workload, c.what);
        }
        let _ = writeln!(md);
    }

    // The derive's compile time, measured apart (it takes minutes of
    // builds, not a criterion run): `scripts/derive_compile_time.sh`
    // writes the section, kept here as written.
    let compile_time = Path::new(env!("CARGO_MANIFEST_DIR")).join("../docs/compile-time.md");
    if let Ok(section) = std::fs::read_to_string(compile_time) {
        let _ = writeln!(md, "{}", section.trim_end());
        let _ = writeln!(md);
    }

    // The services benchmark (its own bench target) writes its table.
    if let Ok(section) = std::fs::read_to_string(binform_benches::report_dir().join("services.md"))
    {
        let _ = writeln!(md, "{}", section.trim_end());
        let _ = writeln!(md);
    }

    for (workload, t) in times {
        let _ = writeln!(md, "## `{workload}`\n");
        let _ = writeln!(
            md,
            "| crate | serialize | ratio | deserialize | ratio | size (bytes) | ratio |"
        );
        let _ = writeln!(md, "|---|---:|---:|---:|---:|---:|---:|");
        let base_ser = t.get(&("serialize".into(), "binform".into())).copied();
        let base_de = t.get(&("deserialize".into(), "binform".into())).copied();
        let base_size = sizes.get(workload).and_then(|s| s.get("binform")).copied();
        for krate in CRATES.iter().chain(BASELINES) {
            let ser = t.get(&("serialize".into(), krate.to_string())).copied();
            let de = t.get(&("deserialize".into(), krate.to_string())).copied();
            let size = sizes.get(workload).and_then(|s| s.get(*krate)).copied();
            if ser.is_none() && de.is_none() {
                continue;
            }
            let ratio = |v: Option<f64>, base: Option<f64>| match (v, base) {
                (Some(v), Some(b)) if b > 0.0 => format!("{:.2}", v / b),
                _ => "–".into(),
            };
            let name = if *krate == "binform" {
                "**binform**".to_string()
            } else {
                krate.to_string()
            };
            let _ = writeln!(
                md,
                "| {name} | {} | {} | {} | {} | {} | {} |",
                ser.map(fmt_time).unwrap_or_else(|| "–".into()),
                ratio(ser, base_ser),
                de.map(fmt_time).unwrap_or_else(|| "–".into()),
                ratio(de, base_de),
                size.map(|s| s.to_string()).unwrap_or_else(|| "–".into()),
                ratio(size.map(|s| s as f64), base_size.map(|s| s as f64)),
            );
        }
        let _ = writeln!(md);
    }
    md
}

/// A dot plot: one row per workload and direction, one marker per crate at
/// its time relative to binform, on a log scale.
fn svg(times: &Times) -> String {
    let rows: Vec<(String, &str)> = times
        .keys()
        .flat_map(|w| [(w.clone(), "serialize"), (w.clone(), "deserialize")])
        .collect();
    let (left, right, top, row_h) = (230.0, 40.0, 60.0, 16.0);
    let width = 1000.0;
    let plot_w = width - left - right;
    let height = top + rows.len() as f64 * row_h + 40.0;
    let (lo, hi) = (1.0f64 / 16.0, 64.0f64);
    let x = |ratio: f64| {
        left + (ratio.clamp(lo, hi).log2() - lo.log2()) / (hi.log2() - lo.log2()) * plot_w
    };
    let mut s = String::new();
    let _ = writeln!(
        s,
        r#"<svg xmlns="http://www.w3.org/2000/svg" width="{width}" height="{height}" font-family="sans-serif" font-size="11">"#
    );
    let _ = writeln!(s, r#"<rect width="100%" height="100%" fill="white"/>"#);
    let _ = writeln!(
        s,
        r#"<text x="{left}" y="18" font-size="14">Time relative to binform (log scale; left of the red line is faster than binform)</text>"#
    );
    // Legend.
    for (i, krate) in CRATES.iter().enumerate() {
        let lx = left + i as f64 * 80.0;
        let _ = writeln!(
            s,
            r#"<circle cx="{}" cy="36" r="4" fill="{}"/><text x="{}" y="40">{krate}</text>"#,
            lx,
            COLORS[i],
            lx + 7.0
        );
    }
    // Grid.
    let mut g = lo;
    while g <= hi {
        let gx = x(g);
        let _ = writeln!(
            s,
            r#"<line x1="{gx}" y1="{top}" x2="{gx}" y2="{}" stroke="{}" stroke-width="1"/><text x="{gx}" y="{}" text-anchor="middle">{}</text>"#,
            height - 30.0,
            if (g - 1.0).abs() < 1e-9 {
                "#d62728"
            } else {
                "#ddd"
            },
            height - 16.0,
            if g < 1.0 {
                format!("1/{}", (1.0 / g) as u32)
            } else {
                format!("{g}x")
            }
        );
        g *= 2.0;
    }
    for (i, (workload, dir)) in rows.iter().enumerate() {
        let y = top + i as f64 * row_h + row_h / 2.0;
        let t = &times[workload];
        if i % 2 == 0 {
            let _ = writeln!(
                s,
                r##"<rect x="0" y="{}" width="{width}" height="{}" fill="#f6f6f6"/>"##,
                y - row_h / 2.0,
                row_h * 2.0
            );
        }
        let _ = writeln!(
            s,
            r#"<text x="{}" y="{}" text-anchor="end">{workload} {dir}</text>"#,
            left - 8.0,
            y + 4.0
        );
        let Some(&base) = t.get(&(dir.to_string(), "binform".to_string())) else {
            continue;
        };
        for (ci, krate) in CRATES.iter().enumerate() {
            if let Some(&v) = t.get(&(dir.to_string(), krate.to_string())) {
                let _ = writeln!(
                    s,
                    r#"<circle cx="{:.1}" cy="{y}" r="4" fill="{}" fill-opacity="0.85"><title>{krate}: {:.2}x</title></circle>"#,
                    x(v / base),
                    COLORS[ci],
                    v / base
                );
            }
        }
    }
    s.push_str("</svg>\n");
    s
}

fn main() {
    let target: PathBuf = binform_benches::target_dir();
    let times = load_times(&target.join("criterion"));
    let sizes = load_sizes(&binform_benches::report_dir().join("sizes.tsv"));
    if times.is_empty() {
        eprintln!(
            "no criterion results under {}: run `cargo bench -p binform-benches` first",
            target.display()
        );
        std::process::exit(1);
    }
    // Only the groups of the latest full run (criterion keeps the results
    // of groups that no longer exist).
    let times: Times = times
        .into_iter()
        .filter(|(w, _)| sizes.is_empty() || sizes.contains_key(w))
        .collect();
    debug_assert!(!PEERS.contains(&"binform") && !PEERS.contains(&"memcpy"));
    let checks = checks(&times, &sizes);
    let docs = Path::new(env!("CARGO_MANIFEST_DIR")).join("../docs");
    std::fs::create_dir_all(&docs).expect("create docs/");
    std::fs::write(
        docs.join("benchmarks.md"),
        markdown(&times, &sizes, &checks),
    )
    .expect("write benchmarks.md");
    std::fs::write(docs.join("benchmarks.svg"), svg(&times)).expect("write benchmarks.svg");
    for c in &checks {
        println!(
            "{} {:<22} {}",
            if c.ok { "ok  " } else { "MISS" },
            c.workload,
            c.what
        );
    }
    println!("wrote docs/benchmarks.md and docs/benchmarks.svg");
}
