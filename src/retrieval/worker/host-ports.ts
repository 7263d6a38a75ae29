/**
 * The worker's side of what only the main thread has, each a port the index already takes: the
 * state store (its shard files), the note reader, the embedder, and, for one sync, the vault.
 * Every method is a call over the channel; shard bytes go in its transfer list.
 */
import type { StateStore } from "../../vault/state-store";
import type { VaultPort, VaultStat } from "../../vault/vault-port";
import type { Embedder } from "../embedder";
import type { HostLinks } from "../links";
import type { NoteFrontmatter } from "../note-frontmatter";
import { transferable } from "./pending";
import type { Call, Service } from "./protocol";
import type { z } from "zod";
import type { AnswerValue } from "./protocol";

type Args<S extends Service> = Omit<Extract<Call, { service: S }>, "type" | "id" | "request" | "service">;

/** Asks the main thread; the answer is of the type its schema gives (the main thread builds it so, inbound.ts). `request`: the request the call is made for, or null for the session's own ports. */
export type CallMain = <S extends Service>(service: S, args: Args<S>, request: number | null, transfer?: ArrayBuffer[]) => Promise<z.infer<(typeof AnswerValue)[S]>>;

export function remoteStore(call: CallMain): StateStore {
  return {
    read: (key) => call("store.read", { key }, null),
    readBytes: (key) => call("store.readBytes", { key }, null),
    async write(key, content) {
      if (typeof content === "string") await call("store.write", { key, content }, null);
      else {
        // The encoded shard is the worker's to give: its bytes move, they are not copied.
        const { array, buffer } = transferable(content);
        await call("store.write", { key, content: array as Uint8Array<ArrayBuffer> }, null, [buffer]);
      }
    },
    append: async (key, text) => void (await call("store.append", { key, text }, null)),
    remove: async (key) => void (await call("store.remove", { key }, null)),
    list: (prefix) => call("store.list", { prefix }, null),
    createExclusive: (key, content) => call("store.createExclusive", { key, content }, null),
  };
}

export function remoteReader(call: CallMain): { read(path: string): Promise<string> } {
  return { read: (path) => call("note.read", { path }, null) };
}

/** The embedder the main thread holds (its requests go through Obsidian's `requestUrl` there). A cancelled request's call is cancelled there with it. */
export function remoteEmbedder(call: CallMain, modelId: string, requestOf: (signal: AbortSignal | undefined) => number | null): Embedder {
  return { modelId, embed: (texts, signal) => call("embed", { texts: [...texts] }, requestOf(signal)) };
}

/** What the main thread sent with the notes' texts, by path, until each note is prepared. */
export interface SentWithText {
  readonly links: Map<string, HostLinks>;
  readonly frontmatter: Map<string, NoteFrontmatter>;
}

/**
 * The vault one sync reads, through the main thread. A note's text comes with the links the host
 * parsed for it (Obsidian's metadata cache) and the frontmatter values the main thread read from
 * it, kept in `sent` for the index's link extractor and frontmatter reader, which ask for them
 * while the note is prepared.
 */
export function remoteVault(call: CallMain, request: number, has: { readonly readWithStat: boolean; readonly statMany: boolean }, sent: SentWithText): VaultPort {
  const keep = (path: string, note: { readonly links: HostLinks | null; readonly frontmatter: NoteFrontmatter }) => {
    if (note.links) sent.links.set(path, note.links);
    else sent.links.delete(path);
    sent.frontmatter.set(path, note.frontmatter);
  };
  const refuse = (): never => {
    throw new Error("The search index only reads the vault.");
  };
  const vault: VaultPort = {
    // Sorted here, off the main thread, which may send them in its vault's own order (listInAnyOrder).
    list: async (folder) => (await call("vault.list", { folder }, request)).sort(),
    stat: (path) => call("vault.stat", { path }, request),
    async read(path) {
      const note = await call("vault.read", { path }, request);
      keep(path, note);
      return note.text;
    },
    readBytes: refuse,
    create: refuse,
    process: refuse,
    replaceIfUnchanged: refuse,
    removeIfUnchanged: refuse,
    createFolder: refuse,
    remove: refuse,
    append: refuse,
    removeStrayTempFiles: refuse,
  };
  if (has.readWithStat) {
    vault.readWithStat = async (path): Promise<{ stat: VaultStat; text: string } | null> => {
      const note = await call("vault.readWithStat", { path }, request);
      if (note) keep(path, note);
      return note && { stat: note.stat, text: note.text };
    };
  }
  if (has.statMany) vault.statMany = (paths) => call("vault.statMany", { paths: [...paths] }, request);
  return vault;
}
