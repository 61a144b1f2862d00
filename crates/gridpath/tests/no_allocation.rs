//! Re-planning must not allocate: a `Search` keeps its buffers between queries. A counting global
//! allocator proves it, for every algorithm. It counts only the test's own thread, and only
//! while it measures: the test harness's threads allocate when they please (on a busy machine
//! one did, mid-search, and failed the test).

use gridpath::{Algorithm, CornerRule, GoalMode, Grid, Movement, Point, Search, SearchConfig};
use std::alloc::{GlobalAlloc, Layout, System};
use std::cell::Cell;
use std::sync::atomic::{AtomicUsize, Ordering};

struct Counting;

static ALLOCATIONS: AtomicUsize = AtomicUsize::new(0);

thread_local! {
    /// Whether this thread's allocations are counted (a `const` cell: reading it never
    /// allocates).
    static COUNTED: Cell<bool> = const { Cell::new(false) };
}

fn count() {
    if COUNTED.try_with(Cell::get).unwrap_or(false) {
        ALLOCATIONS.fetch_add(1, Ordering::Relaxed);
    }
}

unsafe impl GlobalAlloc for Counting {
    unsafe fn alloc(&self, layout: Layout) -> *mut u8 {
        count();
        unsafe { System.alloc(layout) }
    }
    unsafe fn dealloc(&self, ptr: *mut u8, layout: Layout) {
        unsafe { System.dealloc(ptr, layout) }
    }
    unsafe fn realloc(&self, ptr: *mut u8, layout: Layout, new_size: usize) -> *mut u8 {
        count();
        unsafe { System.realloc(ptr, layout, new_size) }
    }
}

#[global_allocator]
static GLOBAL: Counting = Counting;

#[test]
fn a_warm_search_does_not_allocate() {
    let mut grid = Grid::new(64, 48).expect("grid");
    for y in 5..45 {
        grid.set_blocked(Point::new(30, y), true).expect("inside");
    }
    let (start, goal) = (Point::new(2, 24), Point::new(60, 20));
    let mut search = Search::new();
    for algorithm in Algorithm::ALL {
        for goal_mode in [GoalMode::MustBeFree, GoalMode::ClosestReachable] {
            let config = SearchConfig {
                goal_mode,
                ..SearchConfig::astar(Movement::EightWay(CornerRule::NeverCut))
                    .with_algorithm(algorithm)
            };
            // A blocked goal exercises the closest-reachable flood fill too.
            let goals = [goal, Point::new(30, 30)];
            for g in goals {
                if goal_mode == GoalMode::MustBeFree && !grid.is_passable(g) {
                    continue;
                }
                // Warm up: buffers grow to fit this grid.
                for _ in 0..3 {
                    search.begin(&grid, start, g, &config).expect("valid");
                    search.run(&grid);
                }
                let before = ALLOCATIONS.load(Ordering::Relaxed);
                COUNTED.set(true);
                search.begin(&grid, start, g, &config).expect("valid");
                search.run(&grid);
                COUNTED.set(false);
                let after = ALLOCATIONS.load(Ordering::Relaxed);
                assert_eq!(
                    after - before,
                    0,
                    "{algorithm:?} {goal_mode:?} to {g} allocated"
                );
                assert!(!search.path().is_empty());
            }
        }
    }
}
