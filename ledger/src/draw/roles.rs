//! Roles for a schedule: every player plays each role once, every table has each role once.
//!
//! Players and tables form a bipartite graph in which every player has 4 tables (one a round)
//! and every table 4 players, so by König's theorem its edges split into 4 perfect matchings;
//! matching `i` gets role `i`. Each matching is found by augmenting paths (Kuhn's algorithm) on
//! the edges not yet given a role; what is left stays regular, so a perfect matching always exists.

use super::schedule::{ROUNDS, SEATS};

/// `roles[r][p]`: the role number (0..4) of player `p` in round `r`.
pub(super) fn assign(n_players: usize, members: &[Vec<[usize; SEATS]>]) -> Vec<Vec<usize>> {
    let m = n_players / SEATS;
    // Tables are numbered r * m + t; `edges[p]` lists the tables of player p still without a role.
    let mut edges: Vec<Vec<usize>> = vec![Vec::with_capacity(ROUNDS); n_players];
    for (r, tables) in members.iter().enumerate() {
        for (t, seated) in tables.iter().enumerate() {
            for &p in seated {
                edges[p].push(r * m + t);
            }
        }
    }
    let mut roles = vec![vec![usize::MAX; n_players]; ROUNDS];
    for role in 0..SEATS {
        let mut player_at: Vec<Option<usize>> = vec![None; n_players];
        for p in 0..n_players {
            let mut visited = vec![false; n_players];
            let found = augment(p, &edges, &mut player_at, &mut visited);
            assert!(found, "a regular bipartite graph has a perfect matching");
        }
        for (table, player) in player_at.iter().enumerate() {
            let p = player.expect("the matching is perfect");
            roles[table / m][p] = role;
            edges[p].retain(|&t| t != table);
        }
    }
    roles
}

/// Kuhn's augmenting path from player `p`; `player_at[table]` is the table's matched player.
fn augment(p: usize, edges: &[Vec<usize>], player_at: &mut [Option<usize>], visited: &mut [bool]) -> bool {
    for &table in &edges[p] {
        if visited[table] {
            continue;
        }
        visited[table] = true;
        let free = match player_at[table] {
            None => true,
            Some(other) => augment(other, edges, player_at, visited),
        };
        if free {
            player_at[table] = Some(p);
            return true;
        }
    }
    false
}
