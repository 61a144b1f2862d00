//! A maze by recursive backtracking, made a little loopy.
//!
//! Rooms sit on odd coordinates with walls between them. From a room, knock through to a random
//! unvisited neighbour room and go on from there; at a dead end, back up to the last room that
//! still has unvisited neighbours (a stack does the backing up). The result is a "perfect" maze:
//! exactly one route between any two rooms. Knocking out a few extra walls afterwards adds loops,
//! so that the search algorithms have real choices to make.

use super::rng::Rng;
use super::solid::solid;
use gridpath::{Cell, Grid, Point};

pub fn maze(width: u32, height: u32, rng: &mut Rng) -> Grid {
    let mut grid = solid(width, height);
    let (cols, rows) = ((width as i32 - 1) / 2, (height as i32 - 1) / 2);
    let room = |cx: i32, cy: i32| Point::new(2 * cx + 1, 2 * cy + 1);
    let open = |grid: &mut Grid, p: Point| {
        let _ = grid.set(p, Cell::FLOOR);
    };
    let mut visited = vec![false; (cols * rows) as usize];
    let mut stack = vec![(0, 0)];
    visited[0] = true;
    open(&mut grid, room(0, 0));
    while let Some(&(cx, cy)) = stack.last() {
        let mut next = [(0, 0); 4];
        let mut n = 0;
        for (dx, dy) in [(0, -1), (1, 0), (0, 1), (-1, 0)] {
            let (nx, ny) = (cx + dx, cy + dy);
            if nx >= 0 && ny >= 0 && nx < cols && ny < rows && !visited[(ny * cols + nx) as usize] {
                next[n] = (nx, ny);
                n += 1;
            }
        }
        if n == 0 {
            stack.pop();
            continue;
        }
        let (nx, ny) = next[rng.below(n as u32) as usize];
        visited[(ny * cols + nx) as usize] = true;
        let (a, b) = (room(cx, cy), room(nx, ny));
        open(&mut grid, Point::new((a.x + b.x) / 2, (a.y + b.y) / 2)); // the wall between
        open(&mut grid, b);
        stack.push((nx, ny));
    }
    // Loops: open about one in eight of the remaining walls between two rooms.
    for y in 1..height as i32 - 1 {
        for x in 1..width as i32 - 1 {
            let between_rows = x % 2 == 1 && y % 2 == 0 && y + 1 < 2 * rows + 1;
            let between_cols = y % 2 == 1 && x % 2 == 0 && x + 1 < 2 * cols + 1;
            if (between_rows || between_cols)
                && !grid.is_passable(Point::new(x, y))
                && rng.chance(1, 8)
            {
                open(&mut grid, Point::new(x, y));
            }
        }
    }
    grid
}
