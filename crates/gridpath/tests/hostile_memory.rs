//! A hostile header costs nothing: a global allocator that tracks the peak of live bytes proves
//! that parsing follows the text, not what its header claims. (This file is its own test binary
//! with a single test, so the counter sees nothing else.)

use gridpath::Grid;
use gridpath::movingai::{
    FileErrorKind, MapLimits, parse_map, parse_map_with_limits, read_map_file_with_limits,
};
use std::alloc::{GlobalAlloc, Layout, System};
use std::sync::atomic::{AtomicUsize, Ordering};

struct PeakCounting;

static LIVE: AtomicUsize = AtomicUsize::new(0);
static PEAK: AtomicUsize = AtomicUsize::new(0);

fn grew(by: usize) {
    let now = LIVE.fetch_add(by, Ordering::Relaxed) + by;
    PEAK.fetch_max(now, Ordering::Relaxed);
}

unsafe impl GlobalAlloc for PeakCounting {
    unsafe fn alloc(&self, layout: Layout) -> *mut u8 {
        grew(layout.size());
        unsafe { System.alloc(layout) }
    }
    unsafe fn dealloc(&self, ptr: *mut u8, layout: Layout) {
        LIVE.fetch_sub(layout.size(), Ordering::Relaxed);
        unsafe { System.dealloc(ptr, layout) }
    }
    unsafe fn realloc(&self, ptr: *mut u8, layout: Layout, new_size: usize) -> *mut u8 {
        LIVE.fetch_sub(layout.size(), Ordering::Relaxed);
        grew(new_size);
        unsafe { System.realloc(ptr, layout, new_size) }
    }
}

#[global_allocator]
static GLOBAL: PeakCounting = PeakCounting;

/// The most bytes live at once while `work` runs, above what was live before it.
fn peak_during<T>(work: impl FnOnce() -> T) -> (T, usize) {
    let before = LIVE.load(Ordering::Relaxed);
    PEAK.store(before, Ordering::Relaxed);
    let out = work();
    (out, PEAK.load(Ordering::Relaxed) - before)
}

const KIB: usize = 1024;

#[test]
fn headers_that_claim_millions_of_cells_cost_kilobytes() {
    // The 44-byte file: refused at its header by the default limit...
    let tiny = "type octile\r\nheight 1\r\nwidth 67108864\r\nmap\r\n";
    assert_eq!(tiny.len(), 44);
    let (result, peak) = peak_during(|| parse_map(tiny));
    assert_eq!(result.unwrap_err().line, 4);
    assert!(peak < 4 * KIB, "{peak} bytes");

    // ...and, under a limit that lets the header through, by its missing row, still before
    // anything the size of the map is allocated (it would be 256 MiB of costs alone).
    let (result, peak) =
        peak_during(|| parse_map_with_limits(tiny, &MapLimits::cells(Grid::MAX_CELLS)));
    assert_eq!(result.unwrap_err().line, 5);
    assert!(peak < 4 * KIB, "{peak} bytes");

    // A 4096×4096 header (within the default limit) over one row: no 64 MiB grid.
    let one_row = format!(
        "type octile\nheight 4096\nwidth 4096\nmap\n{}\n",
        ".".repeat(4096)
    );
    let (result, peak) = peak_during(|| parse_map(&one_row));
    assert!(result.unwrap_err().message.contains("map row 2 of 4096"));
    assert!(peak < 4 * KIB, "{peak} bytes");

    // A map that is all there costs what its grid costs (4 bytes of cost, 1 of terrain and,
    // for jump point search, 8 bits of runs per cell): memory follows the text.
    let rows = (".".repeat(512) + "\n").repeat(512);
    let whole = format!("type octile\nheight 512\nwidth 512\nmap\n{rows}");
    let (result, peak) = peak_during(|| parse_map(&whole));
    assert_eq!(result.map(|g| g.len()), Ok(512 * 512));
    assert!(peak < 6 * 512 * 512 + 256 * KIB, "{peak} bytes");

    // A device that never ends is read one byte past the limit, then refused.
    if std::path::Path::new("/dev/zero").exists() {
        let limits = MapLimits {
            max_cells: 100,
            max_bytes: 1000,
        };
        let (result, peak) = peak_during(|| read_map_file_with_limits("/dev/zero", &limits));
        let kind = result.map(|_| ()).unwrap_err().kind;
        assert!(
            matches!(kind, FileErrorKind::TooLarge { limit: 1000 }),
            "{kind:?}"
        );
        assert!(peak < 16 * KIB, "{peak} bytes");
    }
}
