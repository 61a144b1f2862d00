//! The agents' systems: a new agent is placed, asks for a route when it needs one and walks it
//! (the rules are in [`crate::agent`]'s docs).

use crate::agent::{
    AgentEscaped, AgentProgress, AgentStatus, Destination, GridAgent, centre, ground_cost,
};
use crate::classes::{ClassId, UnitClasses};
use crate::crowd::{Body, GatherCell};
use crate::flow::{FlowFields, SharedFlow};
use crate::nav_grid::{GridsBySize, NavGrid, corners_touched};
use crate::requests::{PathFailed, PathFailure, PathRequest, PathTask, Route};
use bevy::platform::collections::HashSet;
use bevy::prelude::*;
use gridpath::{Grid, Heuristic, Movement, Point};

/// Agents are placed in `place`, ask for routes in `ask` (the plugin puts both before the
/// searches start) and walk in `walk`.
pub(crate) fn plugin(
    app: &mut App,
    place: impl SystemSet,
    ask: impl SystemSet,
    walk_in: impl SystemSet,
) {
    app.add_message::<AgentEscaped>().add_systems(
        Update,
        (
            place_agents.in_set(place),
            ask_for_routes.in_set(ask),
            walk.in_set(walk_in),
        ),
    );
}

/// A new agent stands where its `Transform` puts it.
fn place_agents(nav: Option<Res<NavGrid>>, mut agents: Query<(&Transform, &mut AgentProgress)>) {
    let Some(nav) = nav else {
        return;
    };
    for (transform, mut progress) in &mut agents {
        if progress.at.is_none() {
            let here = nav.layout().cell_at(transform.translation.truncate());
            progress.here = here;
            progress.at = Some(centre(here));
        }
    }
}

/// Asks for a route for every agent that needs one.
///
/// Why one long function: a Bevy system whose reasons to ask again (no route, a moved destination,
/// an edit on the route, a wall taken away nearby) each read the same queries and the grid's log of
/// edits; as helpers they would pass them all along.
fn ask_for_routes(
    nav: Option<Res<NavGrid>>,
    classes: Res<UnitClasses>,
    mut agents: Query<
        (
            Entity,
            &GridAgent,
            &mut AgentProgress,
            &mut AgentStatus,
            Option<&Destination>,
            Option<&Route>,
            Option<&PathRequest>,
            Option<&PathFailed>,
            Has<PathTask>,
            Option<&GatherCell>,
        ),
        Without<SharedFlow>,
    >,
    mut commands: Commands,
) {
    let Some(nav) = nav else {
        return;
    };
    let mut by_size = GridsBySize::new(&nav);
    // The cells changed since each revision an agent's route was planned on, found once.
    let mut changed: Vec<(u64, u8, ClassId, Option<Edits>)> = Vec::new();
    for (
        entity,
        agent,
        mut progress,
        mut status,
        destination,
        route,
        asked,
        failed,
        searching,
        gathering,
    ) in &mut agents
    {
        // A body that shares its destination heads for a cell of its own near it.
        let to = destination.map(|d| gathering.map_or(d.0, |g| g.0));
        let Some(to) = to else {
            if route.is_some() || asked.is_some() {
                commands.entity(entity).remove::<(Route, PathRequest)>();
            }
            progress.following = None;
            set(&mut status, AgentStatus::Waiting);
            continue;
        };
        if let Some(failed) = failed
            && failed.request.to == to
            && failed.reason != PathFailure::Cancelled
            && asked.is_none()
        {
            if progress.failed_on.is_none() {
                progress.failed_on = Some(nav.revision());
            }
            if progress.failed_on == Some(nav.revision()) && !progress.blocked {
                set(&mut status, AgentStatus::Stuck);
                continue; // nothing changed since: asking again would fail the same way
            }
        }
        let same = |r: &PathRequest| {
            r.to == to
                && r.movement() == agent.movement
                && r.size == agent.size
                && r.class == agent.class
        };
        let needed = match (asked, route) {
            // A search already running is let finish: its route is walked while the next is
            // searched (under churn, replacing it would throw every search away).
            (Some(asked), _) => !same(asked) && !searching,
            (None, Some(route)) if same(&route.request) && !progress.blocked => {
                // Only the edits since the last look: a route is not checked again every frame.
                let since = match progress.checked {
                    Some((planned, seen)) if planned == route.revision => seen,
                    _ => route.revision,
                };
                progress.checked = Some((route.revision, nav.revision()));
                since != nav.revision()
                    && progress.here != to
                    && match changes(&nav, &classes, &mut changed, since, agent) {
                        Some(edits) => edits.touch(&progress, route, agent.movement),
                        None => true, // too many edits to tell
                    }
            }
            _ => progress.here != to || route.is_some_and(|r| r.request.to != to),
        };
        if needed {
            let sized = by_size.get(agent.size);
            let from = plan_from(&progress, route, &sized, agent.movement);
            let request = PathRequest::new(from, to)
                .with_movement(agent.movement)
                .with_size(agent.size)
                .with_class(agent.class);
            progress.failed_on = None;
            progress.blocked = false;
            commands
                .entity(entity)
                .remove::<PathFailed>()
                .insert(request);
        } else if asked.is_none() && route.is_none() && progress.here == to {
            set(&mut status, AgentStatus::Arrived);
        }
    }
}

/// Writes a status only when it changes, so `Changed<AgentStatus>` means something.
fn set(status: &mut Mut<AgentStatus>, new: AgentStatus) {
    if **status != new {
        **status = new;
    }
}

/// The edits since a route was planned, as a unit of one size meets them: the cells where it
/// would stand on a changed cell, those of them that are open now, and the box round them all.
/// After a wall stroke every agent's route is checked against them, so the box rules most
/// routes out without a look-up, and a stroke of walls (no cell opened) none can shorten.
struct Edits {
    touched: HashSet<Point>,
    opened: Vec<Point>,
    /// The box round `opened`: a route far from it on both sides cannot be shortened through it.
    opened_box: (Point, Point),
    /// The grid's cheapest step cost, to scale the heuristic by.
    scale: f64,
    low: Point,
    high: Point,
    /// A link was added or opened: a shortcut from anywhere to anywhere, which no box rules out.
    link_opened: bool,
}

/// The smallest box holding `cells` (corners low and high; an empty box when there are none).
fn bounds<'a>(cells: impl IntoIterator<Item = &'a Point>) -> (Point, Point) {
    let empty = (
        Point::new(i32::MAX, i32::MAX),
        Point::new(i32::MIN, i32::MIN),
    );
    cells.into_iter().fold(empty, |(low, high), p| {
        (
            Point::new(low.x.min(p.x), low.y.min(p.y)),
            Point::new(high.x.max(p.x), high.y.max(p.y)),
        )
    })
}

impl Edits {
    fn new(grid: &Grid, touched: HashSet<Point>, link_opened: bool) -> Self {
        let (low, high) = bounds(&touched);
        let opened: Vec<Point> = touched
            .iter()
            .copied()
            .filter(|&c| grid.is_passable(c))
            .collect();
        Self {
            opened_box: bounds(&opened),
            touched,
            opened,
            scale: f64::from(grid.min_cost()),
            low,
            high,
            link_opened,
        }
    }

    /// Within `margin` cells of the box.
    fn near(&self, p: Point, margin: i32) -> bool {
        (self.low.x - margin..=self.high.x + margin).contains(&p.x)
            && (self.low.y - margin..=self.high.y + margin).contains(&p.y)
    }

    /// Might they change what is best for an agent on `route`: a wall on the rest of it or on
    /// its way back to it, or a cell opened that might shorten it?
    fn touch(&self, progress: &AgentProgress, route: &Route, movement: Movement) -> bool {
        let rest = progress.remaining(route);
        // A diagonal step's corner lies within a cell of the path's cells.
        let near_rest = rest.iter().any(|&p| self.near(p, 1));
        (near_rest && crate::nav_grid::path_touches(rest, &self.touched))
            || (self.near(progress.here, 2) && way_back_touched(rest, progress.here, &self.touched))
            || self.link_opened
            || could_shorten(self, progress, route, movement)
    }
}

/// The edits since `revision` ([`Edits`]) that `agent` sees (its size, and its class: a terrain
/// changed to one its class reads the same is no edit to it); `None` when too many to tell.
/// (Memoised per revision, size and class for one frame.)
fn changes<'m>(
    nav: &NavGrid,
    classes: &UnitClasses,
    memo: &'m mut Vec<(u64, u8, ClassId, Option<Edits>)>,
    revision: u64,
    agent: &GridAgent,
) -> Option<&'m Edits> {
    let key = (revision, agent.size, agent.class);
    let k = match memo.iter().position(|m| (m.0, m.1, m.2) == key) {
        Some(k) => k,
        None => {
            let class = classes.get(agent.class).ok().flatten();
            let touched = nav
                .changes_since_as(revision, class)
                .map(|changes| corners_touched(changes, agent.size))
                .map(|touched| Edits::new(nav.grid(), touched, nav.link_opened_since(revision)));
            memo.push((revision, agent.size, agent.class, touched));
            memo.len() - 1
        }
    };
    memo[k].3.as_ref()
}

/// A body pushed off its route heads back to it, within two moves ([`AgentProgress::step_to`]):
/// has an edit within two cells of it (`changed`) perhaps cut that way off?
fn way_back_touched(rest: &[Point], here: Point, changed: &HashSet<Point>) -> bool {
    !rest.contains(&here)
        && (-2..=2)
            .any(|dy| (-2..=2).any(|dx| changed.contains(&Point::new(here.x + dx, here.y + dy))))
}

/// Could a cell `opened` (freed, or made cheaper) shorten what is left of the route? Only
/// if going through it could cost less than the rest: h(here, c) + h(c, goal) < what is left,
/// with the heuristic scaled by the grid's cheapest cost, so that it never rules out a real
/// improvement. Without this test every wall taken away anywhere would re-route every agent.
fn could_shorten(edits: &Edits, progress: &AgentProgress, route: &Route, m: Movement) -> bool {
    let (Some(&goal), here) = (route.cells.last(), progress.here) else {
        return false;
    };
    if edits.opened.is_empty() {
        return false;
    }
    let done = route.costs.get(progress.next.saturating_sub(1)).copied();
    let left = route.cost() - done.unwrap_or(0.0) - 1e-9;
    let h = Heuristic::best_for(m);
    let via = |c: Point| edits.scale * (h.between(m, here, c) + h.between(m, c, goal));
    // First the box. Off a staggered map the estimate is one of how far apart two cells are
    // along each axis, and grows with each: no opened cell is nearer either end than the box
    // is, so when going through the box costs too much, so does going through any cell in it.
    // After a stroke this rules out all but the routes near it without a look at its cells.
    let (low, high) = edits.opened_box;
    let off = |v: i32, lo: i32, hi: i32| (lo - v).max(v - hi).max(0) as f64;
    let to_box =
        |p: Point| edits.scale * h.estimate(off(p.x, low.x, high.x), off(p.y, low.y, high.y));
    let boxed = m.unstaggered().is_none() && to_box(here) + to_box(goal) >= left;
    !boxed && edits.opened.iter().any(|&c| via(c) < left)
}

/// The cell to plan from: the one it is heading for when it may still go there, else its own.
fn plan_from(progress: &AgentProgress, route: Option<&Route>, grid: &Grid, m: Movement) -> Point {
    match progress.next_cell(route) {
        Some(next) if next == progress.here || m.step_cost(grid, progress.here, next).is_some() => {
            next
        }
        _ => progress.here,
    }
}

/// Moves every agent along its route, one legal step at a time (bodies move with the crowd).
///
/// Why one long function: a Bevy system whose steps (the step taken, the wall check, the glide, the
/// arrival, the status) each need most of its queries; as helpers they would pass them all along.
fn walk(
    time: Res<Time>,
    nav: Option<Res<NavGrid>>,
    classes: Res<UnitClasses>,
    fields: Res<FlowFields>,
    mut agents: Query<
        (
            Entity,
            &GridAgent,
            &mut AgentProgress,
            &mut AgentStatus,
            &mut Transform,
            Option<&Route>,
            Option<&Destination>,
            Has<SharedFlow>,
        ),
        Without<Body>,
    >,
    mut escaped: MessageWriter<AgentEscaped>,
) {
    let Some(nav) = nav else {
        return;
    };
    let mut by_size = GridsBySize::new(&nav);
    let dt = time.delta_secs();
    for (entity, agent, mut progress, mut status, mut transform, route, destination, flows) in
        &mut agents
    {
        let Some(mut at) = progress.at else {
            continue;
        };
        // A unit bigger than one cell steps where it fits.
        let sized = by_size.get(agent.size);
        let grid: &Grid = &sized;
        // A flow agent steps by its destination's field, found once a frame.
        let field = destination
            .filter(|_| flows)
            .and_then(|d| fields.get(d.0, agent.movement));
        join(&mut progress, route);
        if !grid.is_passable(progress.here)
            && let Some((from, to)) = escape(&mut progress, &nav, agent.size)
        {
            escaped.write(AgentEscaped {
                agent: entity,
                from,
                to,
            });
            at = centre(to);
        }
        // Past halfway to a cell walled since: it is inside a wall. Back to where it came from.
        let inside = Point::new(at.x.round() as i32, at.y.round() as i32);
        if inside != progress.here && !grid.is_passable(inside) {
            at = centre(progress.here);
            progress.blocked = true;
        }
        if flows {
            progress.blocked = false; // nothing to ask for: the field is kept fresh for it
        }
        // The cell it heads for from where it stands: the field's next step, or its route's.
        let next = |progress: &AgentProgress| match (flows, field) {
            (true, Some(field)) => field.next_step(grid, progress.here),
            (true, None) => None,
            (false, _) => progress.next_cell(route),
        };
        let mut budget = agent.speed.max(0.0) * dt; // in cost-1 cells
        let class = classes.get(agent.class).ok().flatten();
        for _ in 0..8 {
            let here = progress.here;
            let heading = next(&progress);
            let moves = heading
                .is_some_and(|h| h == here || agent.movement.step_cost(grid, here, h).is_some());
            let link = heading
                .filter(|_| !moves)
                .and_then(|h| grid.link_cost(here, h, class));
            let allowed = moves || link.is_some();
            if heading.is_some() && !allowed {
                progress.blocked = true;
            }
            if link.is_none() {
                progress.crossing = 0.0;
            }
            if let (Some(cost), Some(aim), true) = (link, heading, at == centre(here)) {
                // A link is taken in place: a wait at its start for its cost, then its end.
                progress.crossing += budget;
                if progress.crossing < cost as f32 {
                    break;
                }
                budget = progress.crossing - cost as f32;
                progress.crossing = 0.0;
                at = centre(aim);
                progress.here = aim;
                progress.next = progress.next.saturating_add(1);
                continue;
            }
            // To the link's start first, if it is not quite there.
            let aim = if moves { heading.unwrap_or(here) } else { here };
            let cost = ground_cost(grid, here);
            let to_go = centre(aim) - at;
            let distance = nav.layout().moves_between(at, centre(aim));
            let reach = budget / cost;
            if reach < distance {
                at += to_go / distance * reach;
                break;
            }
            at = centre(aim);
            budget -= distance * cost;
            if link.is_some() {
                continue; // at the link's start now: take it
            }
            if !allowed || progress.blocked {
                break; // wait here for the new route
            }
            progress.here = aim;
            // Saturating: an agent moved off a wall has no route cell (`usize::MAX`), and a
            // flow agent walks by its field, not by `next`.
            progress.next = progress.next.saturating_add(1);
        }
        progress.at = Some(at);
        progress.heading = next(&progress).filter(|_| !progress.blocked);
        let walking = progress.heading.is_some();
        let arrived = destination.is_some_and(|d| d.0 == progress.here) && !walking;
        // A flow agent whose cell the field cannot lead anywhere is stuck (till an edit).
        let cut_off = field.is_some_and(|f| f.cost(progress.here).is_none());
        match *status {
            _ if cut_off && !arrived => set(&mut status, AgentStatus::Stuck),
            AgentStatus::Stuck if !walking && !flows => {}
            _ if arrived => set(&mut status, AgentStatus::Arrived),
            _ if walking => set(&mut status, AgentStatus::Walking),
            _ => set(&mut status, AgentStatus::Waiting),
        }
        let world = nav.layout().cells_to_world(at + agent.centre_offset());
        if transform.translation.truncate() != world {
            transform.translation.x = world.x;
            transform.translation.y = world.y;
        }
    }
}

/// A new route is joined where the agent is heading (it walked on while the route was searched):
/// at that cell if the route passes it, else at the cell it left, else it asks again.
fn join(progress: &mut AgentProgress, route: Option<&Route>) {
    let Some(route) = route else {
        progress.following = None;
        return;
    };
    let key = (route.request, route.revision);
    if progress.following == Some(key) {
        return;
    }
    let old_heading = progress.heading;
    progress.following = Some(key);
    progress.blocked = false;
    let find = |p: Point| route.cells.iter().position(|&c| c == p);
    match old_heading.and_then(find).or_else(|| find(progress.here)) {
        Some(k) => progress.next = k,
        None => {
            progress.next = route.cells.len();
            progress.blocked = true;
        }
    }
}

/// A wall went up under the agent: it moves to the nearest cell where it fits
/// ([`NavGrid::nearest_fit`]), says so, and asks for a new route from there.
fn escape(progress: &mut AgentProgress, nav: &NavGrid, size: u8) -> Option<(Point, Point)> {
    let from = progress.here;
    let to = nav.nearest_fit(from, size)?;
    progress.jump_to(to);
    Some((from, to))
}

#[cfg(test)]
mod tests {
    use super::*;
    use gridpath::CornerRule;

    fn p(x: i32, y: i32) -> Point {
        Point::new(x, y)
    }

    fn route(cells: &[Point], revision: u64) -> Route {
        Route {
            cells: cells.to_vec(),
            costs: (0..cells.len()).map(|k| k as f64).collect(),
            request: PathRequest::new(cells[0], cells[cells.len() - 1]),
            revision,
            partial: false,
            stats: Default::default(),
        }
    }

    #[test]
    fn a_route_not_yet_joined_is_all_still_to_walk() {
        // Far along an old route when a new one lands: until the body joins it at its next
        // tick, an edit anywhere on the new one must be seen.
        let old = route(&[p(0, 0), p(1, 0), p(2, 0), p(3, 0), p(4, 0)], 1);
        let new = route(&[p(3, 1), p(3, 2), p(3, 3), p(3, 4)], 2);
        let grid = Grid::new(8, 8).expect("a grid");
        let movement = Movement::EightWay(CornerRule::NeverCut);
        let mut progress = AgentProgress {
            here: p(3, 0),
            ..default()
        };
        progress.aim(&old, &grid, movement);
        assert_eq!(progress.remaining(&old), &old.cells[3..]);
        assert_eq!(progress.remaining(&new), &new.cells[..]);
    }

    #[test]
    fn an_opened_cell_shortens_a_route_by_the_maps_own_distance() {
        // From (0, 10) to (10, 0) with 14 steps of route left, through a cell opened at (5, 5).
        // On a square 4-way map that way is 20 steps: no shortcut. On a staggered map the cells
        // along x + y = 10 are a step apart each, so it is 10: a shortcut, which reading the raw
        // coordinates missed.
        let grid = Grid::new(12, 12).expect("a grid");
        let mut cells = vec![p(0, 10); 14];
        cells.push(p(10, 0));
        let way = route(&cells, 1);
        let progress = AgentProgress {
            here: p(0, 10),
            ..default()
        };
        let near = Edits::new(&grid, HashSet::from_iter([p(5, 5)]), false);
        assert!(could_shorten(
            &near,
            &progress,
            &way,
            Movement::StaggeredFourWay
        ));
        assert!(!could_shorten(&near, &progress, &way, Movement::FourWay));
        // Far off on both: (0, 0) is 10 columns and 10 sheared rows from the goal.
        let far = Edits::new(&grid, HashSet::from_iter([p(0, 0)]), false);
        assert!(!could_shorten(
            &far,
            &progress,
            &way,
            Movement::StaggeredFourWay
        ));
        assert!(!could_shorten(&far, &progress, &way, Movement::FourWay));
    }

    #[test]
    fn a_body_pushed_round_the_end_of_a_wall_asks_for_a_new_route() {
        // A wall down x = 2 but for its top row; the route runs down x = 1, and the body on it
        // at (1, 1) heads for (1, 2) next.
        let grid = Grid::from_ascii(&[".....", "..#..", "..#..", "..#.."]).expect("a grid");
        let movement = Movement::EightWay(CornerRule::NeverCut);
        let way = route(&[p(1, 0), p(1, 1), p(1, 2), p(1, 3)], 1);
        let on_route = AgentProgress {
            here: p(1, 1),
            ..default()
        };
        let pushed_to = |to: Point| {
            let mut progress = on_route.clone();
            progress.aim(&way, &grid, movement);
            progress.step_to(to, Some(&way), &grid, movement);
            progress.blocked
        };
        // Pushed aside, to (0, 2): a move gets it back.
        assert!(!pushed_to(p(0, 2)));
        // Pushed to (2, 0), by the wall's end: two cells from (1, 2) as the crow flies, but
        // three moves on foot (no cutting the wall's corner).
        assert!(pushed_to(p(2, 0)));
    }

    #[test]
    fn an_edit_beside_a_body_off_its_route_may_cut_its_way_back() {
        let rest = [p(5, 0), p(5, 1), p(5, 2)];
        let changed: HashSet<Point> = [p(4, 3)].into_iter().collect();
        // Off the route, two cells from the edit: its way back may cross it.
        assert!(way_back_touched(&rest, p(3, 2), &changed));
        // Off the route, far from the edit; or on the route (the route's own check covers it).
        assert!(!way_back_touched(&rest, p(0, 0), &changed));
        assert!(!way_back_touched(&rest, p(5, 1), &changed));
    }
}
