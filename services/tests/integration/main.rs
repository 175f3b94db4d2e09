//! End-to-end tests of ledgerd and ledgerctl: the real gRPC server on `127.0.0.1:0`, the real
//! binaries for crashes and the command line.

mod acme;
mod andes;
mod andes_table;
mod architecture;
mod audit;
mod backends;
mod bitrot;
mod board_live;
mod board_screens;
mod cli;
mod console;
mod daemon;
mod descriptors;
mod fanout;
mod grpc;
mod hall;
mod hall_offline;
mod hostile;
mod hostile_held;
mod languages;
mod paper;
mod players;
mod projections;
mod proofs;
mod roundtrip;
mod season;
mod season_list;
mod security;
mod spanish;
mod support;
mod table;
mod table_queue;
mod tokens;
mod tournament;
mod web;
