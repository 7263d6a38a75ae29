// Removes the temporary vaults a test file made, once the file is done.
import { afterAll } from "vitest";
import { removeTempDirs } from "./helpers/temp-vault";

afterAll(removeTempDirs);
