//! A crowd's bodies in the order of their keys, read where they lie ([`KeyOrder`]).

/// The order of a crowd's bodies by their keys, and the way back to where each lies.
///
/// A tick follows the bodies' keys (an engine's entity ids: the same tick, the same moves),
/// whatever order its storage holds them in. But each pass over every body should read them
/// where they lie, one after another: read in the keys' order, every read missed the cache
/// (`bevy_gridpath` at 10,000 bodies: 3 ms a frame instead of 1).
#[derive(Clone, Debug, Default)]
pub struct KeyOrder {
    /// Where the `i`-th body by key lies, and its key.
    pub place: Vec<usize>,
    /// See `place`.
    pub keys: Vec<u64>,
    /// For each place, the rank by key of the body that lies there.
    pub by_place: Vec<usize>,
}

impl KeyOrder {
    /// The order of the bodies whose keys are `keys`, as they lie.
    pub fn new(keys: impl Iterator<Item = u64>) -> Self {
        // Sorted as (key, place) pairs, not through the bodies: no cache miss a comparison.
        let mut pairs: Vec<(u64, usize)> = keys.enumerate().map(|(at, k)| (k, at)).collect();
        pairs.sort_unstable();
        let mut by_place = vec![0; pairs.len()];
        for (i, &(_, at)) in pairs.iter().enumerate() {
            by_place[at] = i;
        }
        Self {
            place: pairs.iter().map(|p| p.1).collect(),
            keys: pairs.iter().map(|p| p.0).collect(),
            by_place,
        }
    }

    /// `bodies`, as they lie, in the keys' order (references: moving the bodies themselves
    /// would copy them all).
    pub fn arrange<'a, T>(&self, bodies: &'a mut [T]) -> Vec<&'a mut T> {
        let mut slots: Vec<Option<&'a mut T>> = bodies.iter_mut().map(Some).collect();
        let take = |&at: &usize| slots.get_mut(at)?.take();
        self.place.iter().filter_map(take).collect()
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn bodies_come_in_their_keys_order_and_each_place_knows_its_rank() {
        let mut bodies = ['c', 'a', 'b'];
        let order = KeyOrder::new([30, 10, 20].into_iter());
        assert_eq!(order.keys, [10, 20, 30]);
        assert_eq!(order.by_place, [2, 0, 1]);
        let arranged: Vec<char> = order.arrange(&mut bodies).into_iter().map(|c| *c).collect();
        assert_eq!(arranged, ['a', 'b', 'c']);
    }
}
