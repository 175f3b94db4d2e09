//! Who sits at which table in each qualifying round, ignoring roles: a design that lets no two
//! players meet twice, then a seeded local search for the field sizes the design cannot serve.
//!
//! The design: the players are dealt (by lot) into a grid of 4 rows of `m = n / 4`; in round
//! `r` (0..4) table `t` seats the players at columns `t + r·k (mod m)` of rows `k = 0..4`. Two
//! players of rows `k ≠ l` meet in round `r` when their columns differ by `r·(l − k)`, so they
//! meet at most once unless `m` divides some `(r − s)·(l − k)`, a product of two numbers in 1..=3:
//! the design is perfect for every `m` except 1, 2, 3, 4, 6 and 9 (4, 8, 12, 16, 24, 36 players).
//! For those the search swaps two players of one round between their tables, always taking the
//! best swap for a player with a repeated opponent (ties and starting points by lot, recent swaps
//! kept from being undone), until no pair repeats or the best possible count is reached.
//!
//! Stand-ins (the players from `fixed_from` on, at most 3) are dealt to row 0, columns 0, 1, 2:
//! row 0 sits at table `t` = its column in every round, so they are at different tables in every
//! round; the search never moves them, so they stay apart. Without stand-ins nothing changes.
//!
//! The search's cost is Σ over pairs of `(c − 1)²` for pairs that meet `c ≥ 1` times: 0 without
//! repeats, and below 16 players it prefers several pairs meeting twice to one pair meeting in
//! every round.

use super::lots::Lots;

/// Rounds in the qualifying stage, and players at a table.
pub(super) const ROUNDS: usize = 4;
pub(super) const SEATS: usize = 4;

/// Swaps the search may try before it settles for the best schedule found. Fields that can be
/// drawn without repeats reach zero within a few thousand; smaller ones stop at their bound.
const SEARCH_BUDGET_SMALL: u64 = 40_000;
const SEARCH_BUDGET: u64 = 400_000;

/// A schedule of players `0..n` (indices into the registration list).
#[derive(Debug, Clone)]
pub(super) struct Schedule {
    n: usize,
    m: usize,
    /// `table_of[r][p]`: the table (0-based) of player `p` in round `r`.
    table_of: Vec<Vec<usize>>,
    /// `members[r][t]`: the four players at table `t` in round `r`.
    members: Vec<Vec<[usize; SEATS]>>,
    /// `meetings[p * n + q]`: how many rounds `p` and `q` share a table.
    meetings: Vec<u8>,
    /// Σ over pairs of [`weight`] of their meetings: 0 when no pair meets twice.
    cost: u64,
    /// Players from this index on are stand-ins: the search leaves them where the design put them.
    fixed_from: usize,
}

impl Schedule {
    /// The design of the module docs, for `n` (a multiple of 4, at least 4) players dealt by lot,
    /// the players from `fixed_from` on (stand-ins, fewer than 4 and than the tables) in row 0.
    pub(super) fn designed(n: usize, fixed_from: usize, lots: &mut Lots) -> Self {
        let m = n / SEATS;
        let mut grid: Vec<usize> = (0..n).collect();
        lots.shuffle(&mut grid);
        for (column, stand_in) in (fixed_from..n).enumerate() {
            let at = grid.iter().position(|&p| p == stand_in).expect("every player is in the grid");
            grid.swap(column, at);
        }
        let members: Vec<Vec<[usize; SEATS]>> = (0..ROUNDS)
            .map(|r| (0..m).map(|t| std::array::from_fn(|k| grid[k * m + (t + r * k) % m])).collect())
            .collect();
        Self::from_members(n, fixed_from, members)
    }

    fn from_members(n: usize, fixed_from: usize, members: Vec<Vec<[usize; SEATS]>>) -> Self {
        let m = n / SEATS;
        let mut table_of = vec![vec![0; n]; ROUNDS];
        let mut meetings = vec![0u8; n * n];
        let mut cost = 0;
        for (r, tables) in members.iter().enumerate() {
            for (t, seated) in tables.iter().enumerate() {
                for (i, &p) in seated.iter().enumerate() {
                    table_of[r][p] = t;
                    for &q in &seated[i + 1..] {
                        cost = cost + weight(meetings[p * n + q] + 1) - weight(meetings[p * n + q]);
                        meetings[p * n + q] += 1;
                        meetings[q * n + p] += 1;
                    }
                }
            }
        }
        Schedule { n, m, table_of, members, meetings, cost, fixed_from }
    }

    /// The players at each table, by round.
    pub(super) fn members(&self) -> &[Vec<[usize; SEATS]>] {
        &self.members
    }

    /// Every pair that meets more than once: `(p, q, rounds together)` with `p < q`.
    pub(super) fn repeated_pairs(&self) -> Vec<(usize, usize, u8)> {
        let n = self.n;
        (0..n)
            .flat_map(|p| (p + 1..n).map(move |q| (p, q)))
            .filter_map(|(p, q)| {
                let c = self.meetings[p * n + q];
                (c > 1).then_some((p, q, c))
            })
            .collect()
    }

    /// The lowest cost any schedule can have. Take two rounds: each table of one round spreads
    /// its 4 players over the `m` tables of the other, so with fewer than 4 tables some of them
    /// sit together in both — at least 6 pairs with 1 table, 2 with 2, 1 with 3 — for each of
    /// the `m` tables and each of the 6 pairs of rounds. A pair meeting `c` times is counted
    /// `c(c − 1)/2 ≤ (c − 1)²` times so. 0 from 16 players on.
    fn lowest_possible_cost(&self) -> u64 {
        let together_at_least: u64 = match self.m {
            1 => 6,
            2 => 2,
            3 => 1,
            _ => 0,
        };
        let m = u64::try_from(self.m).expect("usize fits in u64");
        6 * m * together_at_least
    }

    /// Swaps until no pair repeats, or the lowest possible count is reached, or the budget ends;
    /// keeps the best schedule seen.
    pub(super) fn improve(&mut self, lots: &mut Lots) {
        let goal = self.lowest_possible_cost();
        if self.cost <= goal || self.m < 2 {
            return;
        }
        let budget = if goal == 0 { SEARCH_BUDGET } else { SEARCH_BUDGET_SMALL };
        let mut best = self.clone();
        // `tabu[r * n + p]`: the step until which player p stays at its table in round r.
        let mut tabu = vec![0u64; ROUNDS * self.n];
        for step in 1..=budget {
            let conflicts = self.conflicts();
            let (r, p) = conflicts[lots.below(conflicts.len())];
            let Some(q) = self.best_partner(r, p, step, best.cost, &tabu, lots) else {
                continue;
            };
            self.swap(r, p, q);
            let tenure = 3 + u64::try_from(lots.below(8)).expect("small");
            tabu[r * self.n + p] = step + tenure;
            tabu[r * self.n + q] = step + tenure;
            if self.cost < best.cost {
                best = self.clone();
                if best.cost <= goal {
                    break;
                }
            }
        }
        *self = best;
    }

    /// Every (round, player) where the player sits with someone met in another round too;
    /// stand-ins left out (they are not moved).
    fn conflicts(&self) -> Vec<(usize, usize)> {
        let n = self.n;
        let mut out = Vec::new();
        for (r, tables) in self.members.iter().enumerate() {
            for seated in tables {
                for &p in seated {
                    if p < self.fixed_from && seated.iter().any(|&q| q != p && self.meetings[p * n + q] > 1) {
                        out.push((r, p));
                    }
                }
            }
        }
        out
    }

    /// The player of another table in round `r` whose swap with `p` lowers the cost most (ties
    /// by lot); swaps made recently are left out unless they beat the best schedule so far.
    fn best_partner(
        &self,
        r: usize,
        p: usize,
        step: u64,
        best_cost: u64,
        tabu: &[u64],
        lots: &mut Lots,
    ) -> Option<usize> {
        let p_tabu = tabu[r * self.n + p] > step;
        let mut chosen: Option<(i64, usize)> = None;
        let mut n_tied = 0;
        for q in 0..self.fixed_from {
            if self.table_of[r][q] == self.table_of[r][p] {
                continue;
            }
            let delta = self.swap_delta(r, p, q);
            let new_cost = i64::try_from(self.cost).expect("small") + delta;
            let aspires = new_cost < i64::try_from(best_cost).expect("small");
            if (p_tabu || tabu[r * self.n + q] > step) && !aspires {
                continue;
            }
            match chosen {
                Some((d, _)) if delta > d => {}
                Some((d, _)) if delta == d => {
                    n_tied += 1;
                    if lots.below(n_tied) == 0 {
                        chosen = Some((delta, q));
                    }
                }
                _ => {
                    chosen = Some((delta, q));
                    n_tied = 1;
                }
            }
        }
        chosen.map(|(_, q)| q)
    }

    /// The cost change if `p` and `q` (at different tables) swapped tables in round `r`.
    fn swap_delta(&self, r: usize, p: usize, q: usize) -> i64 {
        let n = self.n;
        let w = |c: u8| i64::try_from(weight(c)).expect("small");
        let change = |a: usize, b: usize, by: i8| {
            let c = self.meetings[a * n + b];
            w(c.saturating_add_signed(by)) - w(c)
        };
        let mut delta = 0;
        for &a in &self.members[r][self.table_of[r][p]] {
            if a != p {
                delta += change(p, a, -1) + change(q, a, 1);
            }
        }
        for &b in &self.members[r][self.table_of[r][q]] {
            if b != q {
                delta += change(q, b, -1) + change(p, b, 1);
            }
        }
        delta
    }

    fn swap(&mut self, r: usize, p: usize, q: usize) {
        let n = self.n;
        let (tp, tq) = (self.table_of[r][p], self.table_of[r][q]);
        for (leaver, joiner, from) in [(p, q, tp), (q, p, tq)] {
            for i in 0..SEATS {
                let a = self.members[r][from][i];
                if a == leaver {
                    self.members[r][from][i] = joiner;
                    continue;
                }
                let (left, joined) = (self.meetings[leaver * n + a], self.meetings[joiner * n + a]);
                self.cost = self.cost + weight(left - 1) + weight(joined + 1) - weight(left) - weight(joined);
                self.meetings[leaver * n + a] -= 1;
                self.meetings[a * n + leaver] -= 1;
                self.meetings[joiner * n + a] += 1;
                self.meetings[a * n + joiner] += 1;
            }
        }
        self.table_of[r][p] = tq;
        self.table_of[r][q] = tp;
    }
}

/// What a pair meeting `c` times adds to the cost: `(c − 1)²`, 0 for pairs that meet at most once.
fn weight(meetings: u8) -> u64 {
    let extra = u64::from(meetings.saturating_sub(1));
    extra * extra
}
