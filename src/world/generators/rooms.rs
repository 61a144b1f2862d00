//! Rooms and corridors, as in a dungeon crawler.
//!
//! Drop rectangles of random size at random places, keeping only those that do not overlap the
//! rooms already placed (with a wall's width between them). Then join each room to the one placed
//! before it with an L-shaped corridor, so every room is reachable. Some corridors are muddy, so
//! the cheapest route is not always the shortest.

use super::rng::Rng;
use super::solid::solid;
use crate::world::terrain::Ground;
use gridpath::{Cell, Grid, Point};

#[derive(Clone, Copy, Debug)]
struct Room {
    x: i32,
    y: i32,
    w: i32,
    h: i32,
}

impl Room {
    fn centre(&self) -> Point {
        Point::new(self.x + self.w / 2, self.y + self.h / 2)
    }

    fn overlaps(&self, o: &Room) -> bool {
        self.x - 1 <= o.x + o.w
            && o.x - 1 <= self.x + self.w
            && self.y - 1 <= o.y + o.h
            && o.y - 1 <= self.y + self.h
    }
}

pub fn rooms(width: u32, height: u32, rng: &mut Rng) -> Grid {
    let mut grid = solid(width, height);
    let (w, h) = (width as i32, height as i32);
    let max_side = ((w.min(h) - 2) / 3).clamp(2, 14) as u32;
    let wanted = ((w * h) / 120).clamp(2, 200);
    let mut placed: Vec<Room> = Vec::new();
    for _ in 0..wanted * 8 {
        if placed.len() as i32 >= wanted {
            break;
        }
        let (rw, rh) = (
            rng.between(2, max_side) as i32,
            rng.between(2, max_side) as i32,
        );
        if rw + 2 > w || rh + 2 > h {
            continue;
        }
        let room = Room {
            x: rng.between(1, (w - rw - 1) as u32) as i32,
            y: rng.between(1, (h - rh - 1) as u32) as i32,
            w: rw,
            h: rh,
        };
        if placed.iter().all(|o| !room.overlaps(o)) {
            placed.push(room);
        }
    }
    for room in &placed {
        for y in room.y..room.y + room.h {
            for x in room.x..room.x + room.w {
                let _ = grid.set(Point::new(x, y), Cell::FLOOR);
            }
        }
    }
    for pair in placed.windows(2) {
        let (a, b) = (pair[0].centre(), pair[1].centre());
        let ground = if rng.chance(1, 4) {
            Ground::Mud
        } else {
            Ground::Road
        };
        let corner = if rng.chance(1, 2) {
            Point::new(b.x, a.y)
        } else {
            Point::new(a.x, b.y)
        };
        for (from, to) in [(a, corner), (corner, b)] {
            carve_line(&mut grid, from, to, ground);
        }
    }
    grid
}

/// Opens a straight corridor, keeping room floors as they are.
fn carve_line(grid: &mut Grid, from: Point, to: Point, ground: Ground) {
    let (dx, dy) = ((to.x - from.x).signum(), (to.y - from.y).signum());
    let mut p = from;
    loop {
        if !grid.is_passable(p) {
            let _ = grid.set(p, Cell::Passable(ground.cost()));
        }
        if p == to {
            break;
        }
        p = Point::new(p.x + dx, p.y + dy);
    }
}
