//! Zobrist keys, computed by a fixed mixing function instead of a stored
//! random table, so every slot and value has a key without any setup.

const SEED: u64 = 0x9E37_79B9_7F4A_7C15;
const SIDE_TAG: u64 = 0xA076_1D64_78BD_642F;
const EP_TAG: u64 = 0xE703_7ED1_A0B4_28DB;

/// SplitMix64's finaliser: a bijective mix with good avalanche.
#[inline]
const fn mix(mut z: u64) -> u64 {
    z = (z ^ (z >> 30)).wrapping_mul(0xBF58_476D_1CE4_E5B9);
    z = (z ^ (z >> 27)).wrapping_mul(0x94D0_49BB_1331_11EB);
    z ^ (z >> 31)
}

/// Key of `value` in `slot`; the empty value has key 0.
#[inline]
pub fn slot_key(slot: usize, value: super::Cell) -> u64 {
    if value.0 == 0 {
        0
    } else {
        mix(SEED.wrapping_add(((slot as u64) << 16) | value.0 as u64))
    }
}

/// The keys of the first players to move, computed once (every move
/// changes the side to move).
const SIDE_KEYS: [u64; 8] = {
    let mut keys = [0; 8];
    let mut i = 0;
    while i < keys.len() {
        keys[i] = mix(SIDE_TAG.wrapping_add(i as u64));
        i += 1;
    }
    keys
};

/// Key of the player to move.
#[inline]
pub fn side_key(side: usize) -> u64 {
    match SIDE_KEYS.get(side) {
        Some(&key) => key,
        None => mix(SIDE_TAG.wrapping_add(side as u64)),
    }
}

const PHASE_TAG: u64 = 0x8EBC_6AF0_9C88_C6E3;

/// Key of the turn-order phase (`Position::phase`); phase 0 has key 0, so
/// games without a turn order hash as before.
#[inline]
pub fn phase_key(phase: u16) -> u64 {
    if phase == 0 {
        0
    } else {
        mix(PHASE_TAG.wrapping_add(phase as u64))
    }
}

/// Key of an en passant square.
#[inline]
pub fn ep_key(sq: crate::board::Square) -> u64 {
    mix(EP_TAG.wrapping_add(sq.0 as u64))
}
