//! Groups of cells joined through the board's neighbours: flood fills, and whether a set
//! of cells joins two regions, kept incrementally where the set only grows.

use std::cell::RefCell;

use super::bits::Bits;
use super::core::Core;

/// The most words a set of cells takes (the largest board).
const MAX_WORDS: usize = crate::ir::MAX_CELLS.div_ceil(64);

/// How many fills each thread keeps.
const KEPT: usize = 8;

/// A complete fill from a region: the cells of `within` joined to the region, for one
/// game (`core`), region and player. Each player's pieces in a placement game only grow
/// between two of its turns, so the next fill for that player starts from this one and
/// looks only at the cells added since.
struct Fill {
    core: u64,
    region: u16,
    me: u8,
    within: [u64; MAX_WORDS],
    filled: [u64; MAX_WORDS],
    /// The cells next to `filled`, not in it: a cell added to `within` joins the fill
    /// when it is one of them (or in the region).
    border: [u64; MAX_WORDS],
}

thread_local! {
    static FILLS: RefCell<Vec<Fill>> = const { RefCell::new(Vec::new()) };
}

fn words<const W: usize>(b: Bits<W>) -> [u64; MAX_WORDS] {
    let mut w = [0; MAX_WORDS];
    w[..W].copy_from_slice(&b.0);
    w
}

fn bits<const W: usize>(w: &[u64; MAX_WORDS]) -> Bits<W> {
    Bits(std::array::from_fn(|i| w[i]))
}

impl<const W: usize> Core<W> {
    /// The cells of `within` joined to `seed` through neighbours in `within` (the board's
    /// orthogonal neighbours, or all of them on a hexagonal board).
    pub fn fill(&self, seed: Bits<W>, within: Bits<W>) -> Bits<W> {
        self.grow(seed.and(within), seed.and(within), within, Bits::EMPTY)
            .0
    }

    /// Whether the cells of `within` joined to region `a` meet region `b` (both read
    /// for player `me`). The fill does not start when either region has no cell of
    /// `within` (most positions of a connection game, most of the time), stops as soon
    /// as it meets `b`, and when it does not, is kept: a later question about a larger
    /// `within` (the same player's pieces a move later) grows it from the cells added.
    pub fn connects(&self, within: Bits<W>, a: usize, b: usize, me: usize) -> bool {
        let seed = self.geo.regions[a][me].and(within);
        let goal = self.geo.regions[b][me].and(within);
        if seed.is_empty() || goal.is_empty() {
            return false;
        }
        let key = |f: &Fill| f.core == self.id && f.region == a as u16 && f.me == me as u8;
        FILLS.with_borrow_mut(|fills| {
            let kept = fills.iter().position(key);
            // A complete fill through fewer cells is part of this one; only the cells
            // added since can join it, next to it or in `a` (as the cells of `a` it
            // already had are in it).
            let (filled, joining, border) = match kept.map(|i| &fills[i]) {
                Some(f) if bits::<W>(&f.within).minus(within).is_empty() => {
                    let border = bits::<W>(&f.border);
                    let near = border.or(self.geo.regions[a][me]);
                    let joining = within.minus(bits(&f.within)).and(near);
                    (bits::<W>(&f.filled), joining, border)
                }
                _ => (Bits::EMPTY, seed, Bits::EMPTY),
            };
            if filled.intersects(&goal) {
                return true;
            }
            if joining.is_empty() {
                // Kept, and no cell added joins it (most moves): the fill and its border
                // stand as they are.
                if let Some(i) = kept {
                    fills[i].within[..W].copy_from_slice(&within.0);
                }
                return false;
            }
            let (filled, met, around) = self.grow(filled.or(joining), joining, within, goal);
            if !met {
                let border = border.or(around).minus(filled);
                match kept {
                    Some(i) => {
                        fills[i].within[..W].copy_from_slice(&within.0);
                        fills[i].filled[..W].copy_from_slice(&filled.0);
                        fills[i].border[..W].copy_from_slice(&border.0);
                    }
                    None => {
                        if fills.len() == KEPT {
                            fills.remove(0);
                        }
                        fills.push(Fill {
                            core: self.id,
                            region: a as u16,
                            me: me as u8,
                            within: words(within),
                            filled: words(filled),
                            border: words(border),
                        });
                    }
                }
            }
            met
        })
    }

    /// Grows `region` (whose cells not in `frontier` have all their neighbours of
    /// `within` in it already) through `within`, stopping as soon as the cells added
    /// meet `goal`: the region so far, whether it met it, and the neighbours of the
    /// frontiers it went through (when it did not meet it, of every cell it added).
    #[inline(always)]
    fn grow(
        &self,
        mut region: Bits<W>,
        mut frontier: Bits<W>,
        within: Bits<W>,
        goal: Bits<W>,
    ) -> (Bits<W>, bool, Bits<W>) {
        let mut around = Bits::EMPTY;
        while !frontier.is_empty() {
            if frontier.intersects(&goal) {
                return (region, true, around);
            }
            let mut next = Bits::EMPTY;
            for c in frontier.iter() {
                next = next.or(self.geo.adjacent[c as usize]);
            }
            around = around.or(next);
            frontier = next.and(within).minus(region);
            region = region.or(frontier);
        }
        (region, false, around)
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    const GAME: &str = "game \"T\" { }\nplayers { red blue }\nboard hex 5 x 5\n\
        piece Stone letter S\nhand { red Stone 25  blue Stone 25 }\n\
        region near-side { red: rank 1  blue: file a }\n\
        region far-side { red: rank 5  blue: file e }\n\
        moves Stone { place on empty }\n\
        end { when as previous: friend connects near-side to far-side: previous wins }\n";

    /// Whether `within` joins the two regions, by a fill from nothing.
    fn fresh(core: &Core<1>, within: Bits<1>, me: usize) -> bool {
        let seed = core.geo.regions[0][me];
        core.fill(seed, within).intersects(&core.geo.regions[1][me])
    }

    #[test]
    fn kept_fills_answer_as_fills_from_nothing_do() {
        let core = Core::<1>::of_text(GAME);
        let mut rng = 0x2545_f491_4f6c_dd1du64;
        let mut next = |n: u64| {
            rng ^= rng << 13;
            rng ^= rng >> 7;
            rng ^= rng << 17;
            rng % n
        };
        let (mut met, mut missed) = (0, 0);
        for _ in 0..200 {
            // Each player's set mostly grows (a game), by one cell or several between
            // two questions, sometimes loses a cell (a move undone, a stone taken) and
            // sometimes starts again (another game).
            let mut sets = [Bits::<1>::EMPTY; 2];
            for _ in 0..40 {
                let me = next(2) as usize;
                let c = next(25) as u16;
                match next(10) {
                    0 => sets[me].remove(c),
                    1 => sets[me] = Bits::EMPTY,
                    2 => {
                        for _ in 0..3 {
                            sets[me].insert(next(25) as u16);
                        }
                    }
                    _ => sets[me].insert(c),
                }
                let want = fresh(&core, sets[me], me);
                assert_eq!(
                    core.connects(sets[me], 0, 1, me),
                    want,
                    "{:?} for {me}",
                    sets[me]
                );
                if want { met += 1 } else { missed += 1 }
            }
        }
        assert!(
            met > 100 && missed > 100,
            "both answers are tried: {met} {missed}"
        );
    }
}
