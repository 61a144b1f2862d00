//! The lifelong validator: checks a run step by step and counts its finished tasks itself. It
//! shares no code with the planner (its moves, its conflict checks and its dealing of tasks are
//! its own), so that a planner's mistake cannot hide in a helper both use.

use crate::grid::{Grid, Point};

/// Checks each step of a lifelong run as it comes (see the module docs).
#[derive(Clone, Debug)]
pub struct LifelongCheck {
    walls: Vec<bool>,
    width: i32,
    height: i32,
    tasks: Vec<Point>,
    at: Vec<Point>,
    /// How many goals each agent has reached: its current goal is task `(n * team + k) mod M`.
    reached: Vec<u32>,
    /// Who stood on each cell at the step before (by the step's number), and who stands on it now.
    before: Vec<(u32, u32)>,
    now: Vec<(u32, u32)>,
    step: u32,
}

impl LifelongCheck {
    /// A run on `grid` from `starts`, with goals dealt round-robin from `tasks`.
    pub fn new(grid: &Grid, starts: &[Point], tasks: &[Point]) -> Result<Self, String> {
        let (width, height) = (grid.width() as i32, grid.height() as i32);
        let walls = (0..height)
            .flat_map(|y| (0..width).map(move |x| Point::new(x, y)))
            .map(|p| !grid.is_passable(p))
            .collect();
        let cells = (width * height) as usize;
        let mut check = Self {
            walls,
            width,
            height,
            tasks: tasks.to_vec(),
            at: starts.to_vec(),
            reached: vec![0; starts.len()],
            before: vec![(u32::MAX, 0); cells],
            now: vec![(u32::MAX, 0); cells],
            step: 0,
        };
        if check.tasks.is_empty() {
            return Err("there are no tasks".into());
        }
        for (k, &p) in starts.iter().enumerate() {
            let c = check
                .cell(p)
                .ok_or(format!("agent {k} starts off the map at {p}"))?;
            if check.walls[c] {
                return Err(format!("agent {k} starts on a wall at {p}"));
            }
            if check.before[c].0 == 0 {
                return Err(format!(
                    "agents {} and {k} both start at {p}",
                    check.before[c].1
                ));
            }
            check.before[c] = (0, k as u32);
        }
        Ok(check)
    }

    /// Agent `k`'s current goal.
    pub fn goal(&self, k: usize) -> Point {
        let team = self.at.len() as u64;
        let line = (u64::from(self.reached[k]) * team + k as u64) % self.tasks.len() as u64;
        self.tasks[line as usize]
    }

    /// The tasks each agent has finished.
    pub fn finished(&self) -> &[u32] {
        &self.reached
    }

    /// The next step's cells, one per agent: every move a wait or one of four, on the map and
    /// off walls, no two agents on one cell, none trading cells. Returns how many tasks this
    /// step finished (an agent on its goal after the step), or what is wrong, in one line.
    pub fn step(&mut self, next: &[Point]) -> Result<u32, String> {
        self.step += 1;
        let t = self.step;
        if next.len() != self.at.len() {
            return Err(format!(
                "step {t}: {} agents, expected {}",
                next.len(),
                self.at.len()
            ));
        }
        for (k, (&from, &to)) in self.at.iter().zip(next).enumerate() {
            let Some(c) = self.cell(to) else {
                return Err(format!("step {t}: agent {k} is off the map at {to}"));
            };
            if self.walls[c] {
                return Err(format!("step {t}: agent {k} is on a wall at {to}"));
            }
            if (from.x - to.x).abs() + (from.y - to.y).abs() > 1 {
                return Err(format!("step {t}: agent {k} jumps from {from} to {to}"));
            }
            if self.now[c].0 == t {
                let other = self.now[c].1;
                return Err(format!("step {t}: agents {other} and {k} both on {to}"));
            }
            self.now[c] = (t, k as u32);
        }
        for (k, (&from, &to)) in self.at.iter().zip(next).enumerate() {
            // A swap: the agent on my new cell before the step is on my old cell after it.
            let Some(c) = self.cell(to) else { continue };
            let (then, j) = self.before[c];
            if from != to && then == t - 1 && j as usize != k && next[j as usize] == from {
                return Err(format!("step {t}: agents {j} and {k} swap {from} and {to}"));
            }
        }
        std::mem::swap(&mut self.before, &mut self.now);
        self.at.copy_from_slice(next);
        let mut done = 0;
        for k in 0..self.at.len() {
            if self.at[k] == self.goal(k) {
                self.reached[k] += 1;
                done += 1;
            }
        }
        Ok(done)
    }

    fn cell(&self, p: Point) -> Option<usize> {
        let inside = (0..self.width).contains(&p.x) && (0..self.height).contains(&p.y);
        inside.then(|| (p.y * self.width + p.x) as usize)
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    fn p(x: i32, y: i32) -> Point {
        Point::new(x, y)
    }

    #[test]
    fn counts_tasks_and_finds_every_kind_of_fault() {
        let grid = Grid::from_ascii(&["...", ".#."]).expect("a grid");
        let starts = [p(0, 0), p(2, 0)];
        let tasks = [p(1, 0), p(2, 1), p(0, 1)];
        let fresh = || LifelongCheck::new(&grid, &starts, &tasks).expect("valid starts");
        // Agent 0 to its goal (task 0); agent 1 follows it into its old cell? No: waits.
        let mut ok = fresh();
        assert_eq!(ok.step(&[p(1, 0), p(2, 0)]), Ok(1));
        assert_eq!(ok.goal(0), p(0, 1), "task (1 * 2 + 0) mod 3");
        assert_eq!(ok.step(&[p(0, 0), p(2, 1)]), Ok(1), "agent 1 on task 1");
        assert_eq!(ok.finished(), [1, 1]);
        let fault = |next: [Point; 2]| fresh().step(&next).expect_err("a fault");
        assert!(fault([p(1, 1), p(2, 0)]).contains("wall"));
        assert!(fault([p(-1, 0), p(2, 0)]).contains("off the map"));
        assert!(fault([p(2, 0), p(2, 1)]).contains("jumps"));
        assert!(fault([p(1, 0), p(1, 0)]).contains("both on"));
        let mut swap = LifelongCheck::new(&grid, &[p(0, 0), p(1, 0)], &tasks).expect("valid");
        assert!(
            swap.step(&[p(1, 0), p(0, 0)])
                .expect_err("a swap")
                .contains("swap")
        );
        // Following into a cell as its agent leaves it is allowed.
        let mut follow = LifelongCheck::new(&grid, &[p(0, 0), p(1, 0)], &tasks).expect("valid");
        assert!(follow.step(&[p(1, 0), p(2, 0)]).is_ok());
        assert!(LifelongCheck::new(&grid, &[p(1, 1)], &tasks).is_err());
        assert!(LifelongCheck::new(&grid, &[p(0, 0), p(0, 0)], &tasks).is_err());
    }
}
