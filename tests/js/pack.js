// What js.pack_test and js.browser_test share: `npm pack` of the wasm32 build's js/ folder, as a
// package manager would publish it, and npm run without the network.
'use strict';
const path = require('path');
const { spawnSync } = require('child_process');

/** npm with the arguments in `cwd`, offline, without audit, funding or update notices; stdout. */
function npm(args, cwd) {
  const r = spawnSync('npm', [...args, '--offline', '--no-audit', '--no-fund', '--loglevel=error'], {
    cwd, encoding: 'utf8',
    env: { ...process.env, npm_config_update_notifier: 'false', npm_config_fund: 'false' },
  });
  if (r.error) throw new Error(`npm ${args.join(' ')}: ${r.error.message} (is npm installed?)`);
  if (r.status !== 0) throw new Error(`npm ${args.join(' ')} in ${cwd} exited ${r.status}:\n${r.stdout}${r.stderr}`);
  return r.stdout;
}

/** `npm pack JS_DIR` into `dest`: the tarball's path, and npm's account of it (name, version,
 *  files). */
function pack(jsDir, dest) {
  const out = npm(['pack', path.resolve(jsDir), '--json', '--pack-destination', dest], dest);
  const [info] = JSON.parse(out);
  return { tarball: path.join(dest, info.filename), info };
}

module.exports = { npm, pack };
