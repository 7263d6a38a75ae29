/**
 * Keys of Synapse's records in the state folder that more than one layer names: the wiki writes
 * them, the write engine puts their entries back one by one when a run is undone.
 */

/** The contradictions found between notes (wiki/contradictions.ts). */
export const CONTRADICTIONS_KEY = "contradictions.json";
