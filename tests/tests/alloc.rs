//! Decoding allocates only what the result owns: counted with a counting
//! global allocator (per thread, so parallel tests do not interfere).

use std::alloc::{GlobalAlloc, Layout, System};
use std::cell::Cell;

use binform_tests::{kate, ten_people, CardHolder, Person};

struct Counting;

thread_local! {
    static ALLOCATIONS: Cell<usize> = const { Cell::new(0) };
    static BYTES: Cell<usize> = const { Cell::new(0) };
}

// SAFETY: every call is forwarded to the system allocator unchanged; the
// counter is a thread-local `Cell` that needs no allocation itself.
unsafe impl GlobalAlloc for Counting {
    unsafe fn alloc(&self, layout: Layout) -> *mut u8 {
        ALLOCATIONS.with(|n| n.set(n.get() + 1));
        BYTES.with(|n| n.set(n.get() + layout.size()));
        unsafe { System.alloc(layout) }
    }
    unsafe fn dealloc(&self, ptr: *mut u8, layout: Layout) {
        unsafe { System.dealloc(ptr, layout) }
    }
    unsafe fn realloc(&self, ptr: *mut u8, layout: Layout, new_size: usize) -> *mut u8 {
        ALLOCATIONS.with(|n| n.set(n.get() + 1));
        BYTES.with(|n| n.set(n.get() + new_size));
        unsafe { System.realloc(ptr, layout, new_size) }
    }
}

#[global_allocator]
static GLOBAL: Counting = Counting;

fn allocations_during<T>(f: impl FnOnce() -> T) -> (T, usize) {
    let before = ALLOCATIONS.with(Cell::get);
    let out = f();
    (out, ALLOCATIONS.with(Cell::get) - before)
}

#[test]
fn decoding_people_allocates_only_their_strings_and_vectors() {
    let people = ten_people();
    let bytes = binform::to_vec(&people).unwrap();
    let (back, count) = allocations_during(|| binform::from_slice::<Vec<Person>>(&bytes).unwrap());
    assert_eq!(back, people);
    // The outer vector, then per person: name, keyword vector, two keywords.
    let owned = 1 + people
        .iter()
        .map(|p| 2 + p.programming_keywords.len())
        .sum::<usize>();
    // And, dropped once the people are built, the ages' column (§27) and
    // the lengths of all twenty keywords (more than a string column keeps
    // in place). A string field's column makes each string where its value
    // is stored, from the column's text, and a keyword list's column fills
    // each person's vector from the keywords' column; short columns keep
    // their lengths in place.
    assert_eq!(count, owned + 2);
}

#[test]
fn decoding_many_cards_allocates_each_once() {
    let holder = kate(1000);
    let bytes = binform::to_vec(&holder).unwrap();
    let (back, count) = allocations_during(|| binform::from_slice::<CardHolder>(&bytes).unwrap());
    assert_eq!(back, holder);
    // Name, the card vector (allocated once, not regrown), each number;
    // and, dropped once the cards are built, the expiry dates' column and
    // the numbers' lengths (§27; each number is made from the column's
    // text where its card is stored).
    assert_eq!(count, 2 + 1000 + 2);
}

#[test]
fn encoding_into_a_reused_buffer_allocates_nothing() {
    let people = ten_people();
    let mut buf = Vec::with_capacity(1024);
    let ((), count) = allocations_during(|| binform::to_vec_into(&mut buf, &people).unwrap());
    assert_eq!(count, 0);
}

#[test]
fn to_vec_allocates_its_result_once() {
    let people = ten_people();
    let holder = kate(1000);
    // The first call on a thread grows the thread's buffer; after it, one
    // allocation of the exact size per call, for any value up to the 1 MiB
    // the thread keeps (a larger one hands its buffer over instead).
    let first = binform::to_vec(&holder).unwrap();
    for _ in 0..3 {
        let (bytes, count) = allocations_during(|| binform::to_vec(&people).unwrap());
        assert_eq!(count, 1);
        assert_eq!(bytes.capacity(), bytes.len());
        let (bytes, count) = allocations_during(|| binform::to_vec(&holder).unwrap());
        assert_eq!(count, 1);
        assert_eq!(bytes, first);
    }
}

#[test]
fn a_few_bytes_declaring_huge_lengths_allocate_under_one_mib() {
    // 2^62 elements, and 2^27 (within max_len) with no data behind them.
    let mut huge = vec![0xFF];
    huge.extend((1u64 << 62).to_le_bytes());
    let mut big = binform::to_vec(&(1usize << 27)).unwrap();
    big.extend([0u8; 8]);
    for payload in [&huge, &big] {
        let before = BYTES.with(Cell::get);
        assert!(binform::from_slice::<Vec<u64>>(payload).is_err());
        assert!(binform::from_slice::<Vec<String>>(payload).is_err());
        assert!(binform::from_slice::<std::collections::HashMap<u32, u32>>(payload).is_err());
        assert!(binform::from_slice::<Vec<Option<[u64; 64]>>>(payload).is_err());
        assert!(binform::from_slice::<String>(payload).is_err());
        let used = BYTES.with(Cell::get) - before;
        assert!(used < 1 << 20, "{used} bytes allocated");
    }
}

#[test]
fn a_column_past_one_mib_at_the_end_of_its_input_is_allocated_once() {
    // Each vector takes more than the 1 MiB any length may preallocate
    // unbacked, and its columns are the last of the input: its room is
    // taken from the input before they are read (their bytes back it), as
    // for a vector made before its elements, and it is not regrown.
    let n = 50_000;
    let strings: Vec<String> = (0..n).map(|i| format!("s{i}")).collect();
    assert!(n * std::mem::size_of::<String>() > 1 << 20);
    let bytes = binform::to_vec(&strings).unwrap();
    let (back, count) = allocations_during(|| binform::from_slice::<Vec<String>>(&bytes).unwrap());
    assert_eq!(back, strings);
    // The vector, each string, and the column's lengths (dropped after).
    assert_eq!(count, 1 + n + 1);

    let rows: Vec<(u32, String)> = (0..n).map(|i| (i as u32, format!("s{i}"))).collect();
    let bytes = binform::to_vec(&rows).unwrap();
    let (back, count) =
        allocations_during(|| binform::from_slice::<Vec<(u32, String)>>(&bytes).unwrap());
    assert_eq!(back, rows);
    // The vector, each string; the integers' column and the strings'
    // lengths (dropped after).
    assert_eq!(count, 1 + n + 2);

    let n = 100_000;
    let arrays: Vec<[u32; 4]> = (0..n).map(|i| [i as u32, 1, 2, 3]).collect();
    let bytes = binform::to_vec(&arrays).unwrap();
    let (back, count) =
        allocations_during(|| binform::from_slice::<Vec<[u32; 4]>>(&bytes).unwrap());
    assert_eq!(back, arrays);
    // The vector, and the column of all the elements (dropped after).
    assert_eq!(count, 2);

    let owned: Vec<Vec<u8>> = (0..n).map(|i| vec![i as u8; 3]).collect();
    let bytes = binform::to_vec(&owned).unwrap();
    let (back, count) = allocations_during(|| binform::from_slice::<Vec<&[u8]>>(&bytes).unwrap());
    assert_eq!(back, owned);
    // The vector of borrowed slices, and the lengths (dropped after).
    assert_eq!(count, 2);
}
