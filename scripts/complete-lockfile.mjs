// The npm registry reachable from our machines lacks some platform builds of optional native
// packages (e.g. @next/swc-darwin-arm64). npm then leaves them out of package-lock.json, and
// `npm ci` refuses that lock as out of sync. This adds the missing entries with the os/cpu/libc
// that their names state, so npm skips them on other platforms and fetches them where they fit.
// Run it after `npm install` when `npm ci --dry-run` reports "Missing: … from lock file".
import { readFileSync, writeFileSync } from "node:fs";

const OS = ["darwin", "win32", "linux", "android", "freebsd", "openharmony"];
const CPU = { arm64: "arm64", x64: "x64", ia32: "ia32", arm: "arm", loong64: "loong64", ppc64: "ppc64", riscv64: "riscv64", s390x: "s390x", wasm32: "wasm32" };

const lock = JSON.parse(readFileSync("package-lock.json", "utf8"));
let added = 0;
for (const [path, entry] of Object.entries(lock.packages)) {
  for (const [name, version] of Object.entries(entry.optionalDependencies ?? {})) {
    const nested = `${path ? `${path}/` : ""}node_modules/${name}`;
    if (lock.packages[nested] || lock.packages[`node_modules/${name}`]) continue;
    const parts = name.split("/").pop().split("-");
    const os = OS.find((o) => parts.includes(o));
    const cpu = parts.map((p) => CPU[p]).find(Boolean);
    // WebAssembly builds (…-wasm32-wasi) name a CPU but no OS.
    if (!cpu || (!os && cpu !== "wasm32")) throw new Error(`cannot tell the platform of ${name}`);
    const libc = parts.some((p) => p.startsWith("musl")) ? ["musl"] : os === "linux" ? ["glibc"] : undefined;
    lock.packages[`node_modules/${name}`] = { version, cpu: [cpu], ...(os && { os: [os] }), ...(libc && { libc }), optional: true };
    added++;
  }
}
writeFileSync("package-lock.json", `${JSON.stringify(lock, null, 2)}\n`);
console.log(`added ${added} missing platform entries to package-lock.json`);
