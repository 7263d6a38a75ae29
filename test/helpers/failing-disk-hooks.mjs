// Preloaded into the CLI (node --import) to play a failing disk: every file write under
// $SYNAPSE_TEST_FULL_DISK, and stdout when $SYNAPSE_TEST_FULL_STDOUT is set, fails with ENOSPC;
// reading the file $SYNAPSE_TEST_UNREADABLE fails with EACCES (tests run as root, where chmod
// takes nothing away).
import fs from "node:fs";
import { syncBuiltinESMExports } from "node:module";
// Node's own process object, read off globalThis: importing "node:process" here would set up stdout
// before fs.writeSync is replaced, and the replacement would then never be called.
const process = globalThis.process;

function enospc(path) {
  const error = new Error(`ENOSPC: no space left on device, write${path ? ` '${path}'` : ""}`);
  return Object.assign(error, { code: "ENOSPC", errno: -28, syscall: "write", ...(path ? { path } : {}) });
}

const under = process.env.SYNAPSE_TEST_FULL_DISK;
if (under) {
  const writeFile = fs.promises.writeFile;
  fs.promises.writeFile = async (path, ...rest) => {
    if (typeof path === "string" && path.startsWith(under)) throw enospc(path);
    return writeFile(path, ...rest);
  };
}
if (process.env.SYNAPSE_TEST_FULL_STDOUT) {
  // stdout redirected to a file is written with writeSync on fd 1.
  const writeSync = fs.writeSync;
  fs.writeSync = (fd, ...rest) => {
    if (fd === 1) throw enospc(null);
    return writeSync(fd, ...rest);
  };
}
const unreadable = process.env.SYNAPSE_TEST_UNREADABLE;
if (unreadable) {
  const readFile = fs.promises.readFile;
  fs.promises.readFile = async (path, ...rest) => {
    if (path === unreadable) throw Object.assign(new Error(`EACCES: permission denied, open '${path}'`), { code: "EACCES", errno: -13, syscall: "open", path });
    return readFile(path, ...rest);
  };
}
syncBuiltinESMExports();
