// Runs one workload at one size on one peer engine and prints one JSON line per figure:
//   node run.mjs --engine tanstack|zero --workload W1|W2|W3|W4|W5|W6 --rows N [--warmup N] [--updates N]
//       [--hydrate-runs N] [--seed N] [--mode warm|cold|memory]
// warm (default): hydrate-runs builds, then the update mixes. cold: one build in this fresh process
// (hydrate_cold_ms, load_until_ready_cold_ms, correct_cold). memory: one build, then the heap per
// retained row with the driver's copy released (heap_bytes_per_row; needs node --expose-gc).
// Run from the scratch folder that holds node_modules (run-peers.sh copies this file there).
// Diagnostics go to stderr. Exit code 1 when a check failed.
import * as gen from './gen.mjs'

const args = Object.fromEntries(process.argv.slice(2).reduce((acc, a, i, all) =>
  a.startsWith('--') ? [...acc, [a.slice(2), all[i + 1]]] : acc, []))
const engineName = args.engine
const workload = args.workload
const rows = Number(args.rows ?? 100000)
const warmup = Number(args.warmup ?? 10000)
const measured = Number(args.updates ?? 50000)
const hydrateRuns = Math.max(1, Number(args["hydrate-runs"] ?? 20))
const seed = Number(args.seed ?? gen.DEFAULT_SEED)
const mode = args.mode ?? 'warm'
if (!['warm', 'cold', 'memory'].includes(mode)) throw new Error('unknown mode ' + mode)
const MIXES = { W1: ['random', 'edge'], W6: ['random', 'edge'], W2: ['mixed'], W3: ['mixed'], W4: gen.W4_MIXES, W5: ['mixed'] }[workload]
if (!MIXES) throw new Error('unknown workload ' + workload)
const engine = await import(`./${engineName}.mjs`)
// Zero with a view flush per update (see zero.mjs) is reported as its own engine.
const label = engineName === 'zero' && process.env.ZERO_FLUSH === '1' ? 'zero_flush' : engineName

let failed = false
function emit(metric, value, mix, detail) {
  const o = { engine: label, workload, rows }
  if (mix) o.mix = mix
  o.metric = metric
  o.value = typeof value === 'number' && !Number.isInteger(value) ? Number(value.toFixed(3)) : value
  if (detail) o.detail = detail
  console.log(JSON.stringify(o))
}
function correct(problem, metric = 'correct') {
  if (problem) failed = true
  emit(metric, !problem, undefined, problem ?? undefined)
}
const gc = globalThis.gc ?? (() => {})
const median = (xs) => { const s = [...xs].sort((a, b) => a - b), n = s.length; return n % 2 ? s[n >> 1] : (s[n / 2 - 1] + s[n / 2]) / 2 }

// ---- naive recomputation from the driver's own copy of the data ----
/** W4: the visible issues in W1 order, each with its newest comments and its project. */
function naiveW4(state, data) {
  const top = new Map(state.visible.map((id) => [id, []]))
  for (const c of state.comments) top.get(c.issue_id)?.push(c)
  return state.visible.map((id) => {
    const r = state.issues[id], p = data.projects[r.project_id]
    const cs = top.get(id).sort(gen.commentCompare).slice(0, gen.COMMENT_LIMIT)
    return { id, title: r.title, priority: r.priority, created: r.created,
      comments: cs.map((c) => ({ id: c.id, created: c.created, body: c.body })),
      project: p ? { id: p.id, name: p.name } : null }
  })
}
/** W5: tasks unassigned or with an active member, priority desc, id asc, first 50, with the member's columns. */
function naiveW5(cur) {
  return cur.tasks.filter((t) => gen.w5Visible(t, cur.members)).sort(gen.w5Compare).slice(0, gen.W5_LIMIT)
    .map((t) => {
      const u = t.assignee === null ? null : cur.members[t.assignee]
      return { id: t.id, title: t.title, priority: t.priority, assignee: t.assignee, owner: u ? u.name : null,
        active: u ? u.active : null }
    })
}
function naive(cur, data) {
  if (workload === 'W4') return naiveW4(cur, data)
  if (workload === 'W5') return naiveW5(cur)
  if (workload === 'W1') {
    return cur.filter((r) => r.status === 'open').sort(gen.w1Compare).slice(0, gen.LIMIT)
      .map((r) => ({ id: r.id, priority: r.priority, created: r.created }))
  }
  if (workload === 'W6') {
    return cur.filter((r) => r.status === 'open').sort(gen.w6Compare).slice(0, gen.LIMIT)
      .map((r) => ({ id: r.id, title: r.title }))
  }
  if (workload === 'W2') {
    const cnt = new Array(gen.USERS).fill(0), mx = new Array(gen.USERS).fill(-1)
    for (const r of cur) { cnt[r.assignee]++; mx[r.assignee] = Math.max(mx[r.assignee], r.priority) }
    const out = []
    for (const u of data.users) if (cnt[u.id]) out.push({ id: u.id, name: u.name, issues: cnt[u.id], max_priority: mx[u.id] })
    return out
  }
  return cur.filter((r) => r.status === 'open' && !data.projects[r.project_id].archived)
    .map((r) => ({ id: r.id, title: r.title, priority: r.priority, owner: data.users[r.assignee].name, project: data.projects[r.project_id].name }))
}
/** Null when the live result equals the naive one (order included for W1, W4-W6), else a description. */
function check(live, cur, data, when) {
  const want = naive(cur, data)
  const key = (r) => JSON.stringify(r)
  const inOrder = workload === 'W1' || workload === 'W4' || workload === 'W5' || workload === 'W6'
  const a = inOrder ? live : [...live].sort((x, y) => x.id - y.id)
  const b = inOrder ? want : [...want].sort((x, y) => x.id - y.id)
  if (a.length !== b.length) return `${when}: ${a.length} rows, naive has ${b.length}`
  for (let i = 0; i < a.length; i++) {
    if (key(a[i]) !== key(b[i])) return `${when}: row ${i} is ${key(a[i])}, naive has ${key(b[i])}`
  }
  return null
}

/** The driver's data (W5: tasks and members; else issues, users, projects, W4 also comments). */
function generate() {
  if (workload === 'W5') return { tasks: gen.tasks(rows, seed), members: gen.members(rows, seed) }
  const d = { issues: gen.issues(rows, seed), users: gen.users(), projects: gen.projects(seed) }
  if (workload === 'W4') d.comments = gen.comments(rows, seed)
  return d
}
/** The driver's own copy of the current data, which the update streams change. */
function current(d) {
  if (workload === 'W4') return new gen.W4State(d.issues, d.comments)
  if (workload === 'W5') return { tasks: d.tasks.slice(), members: d.members.slice() }
  return d.issues.slice()
}
/** Rows the engine keeps for the workload (the tables it loads). */
function retainedRows(d) {
  return workload === 'W5' ? d.tasks.length + d.members.length
    : workload === 'W1' || workload === 'W6' ? d.issues.length
      : workload === 'W4' ? d.issues.length + d.projects.length + d.comments.length
        : d.issues.length + d.users.length + (workload === 'W3' ? d.projects.length : 0)
}
const gc3 = () => { gc(); gc(); gc() }

if (mode === 'cold') {
  // One build in this fresh process: what an application meets when it starts.
  const d = generate()
  gc()
  const one = await engine.open(workload, d)
  if (!one) { emit('unsupported', true); process.exit(0) }
  emit('hydrate_cold_ms', one.queryMs)
  emit('load_until_ready_cold_ms', one.loadMs + one.queryMs)
  correct(check(one.result(), current(d), d, 'after hydration'), 'correct_cold')
  process.exit(failed ? 1 : 0)
}
if (mode === 'memory') {
  // Live heap per retained row: heapUsed after full GCs, minus the process's before the data was
  // made, with the driver's copy released. RSS delta beside it (native memory included). The
  // build runs in its own function, and the last measure after a timer turn, so no stale
  // register or pending job of this module keeps the driver's arrays alive.
  if (!globalThis.gc) throw new Error('memory mode needs node --expose-gc')
  gc3()
  const base = process.memoryUsage()
  const build = async () => {
    const d = generate()
    const one = await engine.open(workload, d)
    if (!one) return null
    const problem = check(one.result(), current(d), d, 'after hydration')
    gc3()
    return { one, problem, retained: retainedRows(d), withCopy: process.memoryUsage().heapUsed }
  }
  const b = await build()
  if (!b) { emit('unsupported', true); process.exit(0) }
  await new Promise((resolve) => setTimeout(resolve, 10))
  gc3()
  const m = process.memoryUsage()
  emit('heap_bytes_per_row', (m.heapUsed - base.heapUsed) / b.retained, undefined,
    `heapUsed after full GCs minus before the data, over ${b.retained} rows, harness copy released`)
  emit('heap_mb', (m.heapUsed - base.heapUsed) / 1048576)
  emit('harness_copy_mb', (b.withCopy - m.heapUsed) / 1048576)
  emit('external_mb', (m.external - base.external) / 1048576)
  emit('rss_bytes_per_row', (m.rss - base.rss) / b.retained, undefined, 'RSS delta (heap, native and allocator slack)')
  emit('retained_rows', b.retained)
  correct(b.problem, 'correct_memory')
  b.one.close()
  process.exit(failed ? 1 : 0)
}

// ---- hydration: fresh tables and query each run; the last one is kept ----
const data = generate()
let h = null
const totals = [], loads = [], queries = []
for (let i = 0; i < hydrateRuns; i++) {
  h?.close()
  h = null
  gc()
  h = await engine.open(workload, data)
  if (!h) { emit('unsupported', true); process.exit(0) }
  totals.push(h.loadMs + h.queryMs); loads.push(h.loadMs); queries.push(h.queryMs)
}
const warm = (xs) => (xs.length > 1 ? xs.slice(1) : xs)
emit('hydrate_first_ms', totals[0])
emit('hydrate_warm_ms', median(warm(queries)))
emit('load_until_ready_warm_ms', median(warm(totals)))
emit('load_ms', median(warm(loads)))
gc()
emit('heap_after_hydrate_mb', Math.round(process.memoryUsage().heapUsed / 1048576))

// ---- updates: per single-row update, the time until the live result reflects it ----
// W1-W3 and W6 replace issue rows; W4 inserts and moves comments (before is null for an insert); W5
// replaces a task or a member row (the change names its table).
const cur = current(data)
let problem = check(h.result(), cur, data, 'after hydration')
for (const mix of MIXES) {
  if (problem) break
  const stream = workload === 'W4' ? gen.w4Updates(mix, cur, seed)
    : workload === 'W5' ? gen.w5Updates(cur.tasks, cur.members, seed) : gen.updates(workload, mix, cur, seed)
  const changes = workload === 'W4' || workload === 'W5'
  const lat = new Float64Array(measured)
  const events0 = h.events?.()
  gc()
  for (let i = 0, n = warmup + measured; i < n; i++) {
    const next = stream.next()
    const after = changes ? next.after : next
    const before = changes ? next.before : cur[after.id]
    const t0 = process.hrtime.bigint()
    h.update(before, after, next.table)
    const t1 = process.hrtime.bigint()
    stream.applied(next)
    if (i >= warmup) lat[i - warmup] = Number(t1 - t0) / 1000
  }
  // Change events the adapter's subscriber saw over the mix (warm-up included), where it has one.
  if (events0 !== undefined) emit('change_events', h.events() - events0, mix)
  lat.sort()
  const q = (p) => lat[Math.max(0, Math.min(measured - 1, Math.ceil(p * measured) - 1))]
  emit('updates', measured, mix)
  emit('update_p50_us', q(0.5), mix)
  emit('update_p99_us', q(0.99), mix)
  emit('update_max_us', lat[measured - 1], mix)
  emit('update_mean_us', lat.reduce((s, x) => s + x, 0) / measured, mix)
  problem = check(h.result(), cur, data, `after the ${mix} mix`)
}
correct(problem)
process.exit(failed ? 1 : 0)
