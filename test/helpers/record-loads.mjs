// Registered with `node --import`: writes the path of every file module the process loads to the
// file named by SYNAPSE_RECORD_LOADS, one per line, so a test can see what a command loaded.
import { register } from "node:module";
import process from "node:process";

register("./record-loads-hooks.mjs", import.meta.url, { data: { out: process.env.SYNAPSE_RECORD_LOADS } });
