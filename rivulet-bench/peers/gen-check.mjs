// Prints the generator's first outputs, rows and updates, and digests over whole runs, in a text
// format that dev.rivulet.bench.peers.GenCheck prints too, so the two can be diffed:
//   node gen-check.mjs [rows=100000] [updates=10000] [seed]
import * as gen from './gen.mjs'

const rows = Number(process.argv[2] ?? 100000)
const count = Number(process.argv[3] ?? 10000)
const seed = Number(process.argv[4] ?? gen.DEFAULT_SEED)
const SHOW = 5
const out = (s) => process.stdout.write(s + '\n')
const hash = (h, line) => {
  for (let i = 0; i < line.length; i++) h = (Math.imul(h, 31) + line.charCodeAt(i)) | 0
  return (Math.imul(h, 31) + 10) | 0
}
const issueLine = (r) => `issue ${r.id} ${r.status} ${r.priority} ${r.created} ${r.assignee} ${r.project_id} ${r.title}`

for (const s of [0, seed]) {
  const r = new gen.SplitMix64(s)
  out(`splitmix64 ${s}: ` + [0, 1, 2].map(() => r.nextBig().toString(16).padStart(16, '0')).join(' '))
}
const r = new gen.SplitMix64(seed)
out('nextInt(100) x10: ' + Array.from({ length: 10 }, () => r.nextInt(100)).join(' '))

const data = gen.issues(rows, seed)
let h = 0
data.forEach((row, i) => { const line = issueLine(row); if (i < SHOW) out(line); h = hash(h, line) })
out(`digest issues ${rows}: ${h}`)
h = 0
gen.projects(seed).forEach((p, i) => { const line = `project ${p.id} ${p.name} ${p.archived}`; if (i < SHOW) out(line); h = hash(h, line) })
out(`digest projects: ${h} archived=${gen.projects(seed).filter((p) => p.archived).length}`)
out(`open issues: ${data.filter((x) => x.status === 'open').length}`)

// W1 runs random then edge on one copy; W2 and W3 each start from fresh data.
let cur = null
for (const [w, mix] of [['W1', 'random'], ['W1', 'edge'], ['W2', 'mixed'], ['W3', 'mixed']]) {
  if (mix !== 'edge') cur = data.slice()
  const s = gen.updates(w, mix, cur, seed)
  h = 0
  for (let i = 0; i < count; i++) {
    const after = s.next()
    const before = cur[after.id]
    const line = before.assignee !== after.assignee
      ? `update ${w} ${mix} ${after.id} assignee ${before.assignee}->${after.assignee}`
      : `update ${w} ${mix} ${after.id} priority ${before.priority}->${after.priority}`
    if (i < SHOW) out(line)
    h = hash(h, line)
    s.applied(after)
  }
  out(`digest updates ${w} ${mix} ${count}: ${h}`)
}
const top = cur.filter((x) => x.status === 'open').sort(gen.w1Compare).slice(0, 3)
out('top3 open after W3: ' + top.map((x) => `${x.id}/${x.priority}`).join(' '))

// W6 runs random then edge on one fresh copy; an update changes the title.
cur = data.slice()
for (const mix of ['random', 'edge']) {
  const s = gen.updates('W6', mix, cur, seed)
  h = 0
  for (let i = 0; i < count; i++) {
    const after = s.next()
    const line = `update W6 ${mix} ${after.id} title ${cur[after.id].title}->${after.title}`
    if (i < SHOW) out(line)
    h = hash(h, line)
    s.applied(after)
  }
  out(`digest updates W6 ${mix} ${count}: ${h}`)
}
out('top3 open after W6: ' + cur.filter((x) => x.status === 'open').sort(gen.w6Compare).slice(0, 3)
  .map((x) => `${x.id}/${x.title}`).join(' '))

// W4: comments on fresh issues, then its four mixes in order on one W4State.
const commentLine = (c) => `comment ${c.id} ${c.issue_id} ${c.created} ${c.body}`
const w4 = new gen.W4State(data, gen.comments(rows, seed))
h = 0
w4.comments.forEach((c, i) => { const line = commentLine(c); if (i < SHOW) out(line); h = hash(h, line) })
out(`digest comments ${w4.comments.length}: ${h} visible=${w4.visible.slice(0, 5).join(',')}`)
for (const mix of gen.W4_MIXES) {
  const s = gen.w4Updates(mix, w4, seed)
  h = 0
  for (let i = 0; i < count; i++) {
    const c = s.next()
    const line = c.before ? `move W4 ${mix} ${c.after.id} ${c.before.issue_id}->${c.after.issue_id}` : 'insert W4 ' + mix + ' ' + commentLine(c.after)
    if (i < SHOW) out(line)
    h = hash(h, line)
    s.applied(c)
  }
  out(`digest updates W4 ${mix} ${count}: ${h}`)
}
out('newest of visible after W4: ' + w4.lists.slice(0, 5).map((l) => l[0]?.id ?? '-').join(' '))

// W5: tasks and members, then its mixed stream on them.
const taskLine = (t) => `task ${t.id} ${t.priority} ${t.assignee ?? 'null'} ${t.title}`
const memberLine = (m) => `member ${m.id} ${m.name} ${m.active}`
const tasks = gen.tasks(rows, seed), members = gen.members(rows, seed)
h = 0
tasks.forEach((t, i) => { const line = taskLine(t); if (i < SHOW) out(line); h = hash(h, line) })
out(`digest tasks ${rows}: ${h} unassigned=${tasks.filter((t) => t.assignee === null).length}`)
h = 0
members.forEach((m, i) => { const line = memberLine(m); if (i < SHOW) out(line); h = hash(h, line) })
out(`digest members ${members.length}: ${h} active=${members.filter((m) => m.active).length}`)
const s5 = gen.w5Updates(tasks, members, seed)
h = 0
for (let i = 0; i < count; i++) {
  const c = s5.next()
  const line = 'update W5 mixed ' + (c.table === 'tasks' ? taskLine(c.after) : memberLine(c.after))
  if (i < SHOW) out(line)
  h = hash(h, line)
  s5.applied(c)
}
out(`digest updates W5 mixed ${count}: ${h}`)
out('top3 visible after W5: ' + tasks.filter((t) => gen.w5Visible(t, members)).sort(gen.w5Compare).slice(0, 3)
  .map((t) => `${t.id}/${t.priority}`).join(' '))
