/**
 * The device a writer runs on, in a file of its own: the write path's records name it
 * (write/write-records.ts) and the programs that find their own device (vault/device-id.ts, the
 * plugin) build it, without either depending on the other.
 */
import * as z from "zod";

/**
 * One computer or phone. Its id is kept where sync tools do not reach (the user's config folder,
 * Obsidian's local storage), so two devices never share one, and a program on this device can tell
 * its own records from those that sync brought in.
 */
export const DeviceSchema = z.object({
  id: z.string().min(1),
  /** How messages name it ("laptop", "an iPhone"): a label, never used to decide anything. */
  name: z.string(),
});
export type Device = z.infer<typeof DeviceSchema>;
