// The shared data and update generator (see README.md "Generator spec"); twin of
// dev.rivulet.bench.peers.SplitMix64 / PeerData in Java. Pure JS, no dependencies.

export const DEFAULT_SEED = 20240601
export const USERS = 10000
export const PROJECTS = 1000
export const LIMIT = 50
export const EDGE_SPAN = 100
export const STATUSES = ['open', 'closed', 'review']
export const WORDS = ['crash', 'login', 'slow', 'export', 'layout', 'timeout', 'typo', 'cache']
/** Stream tags: each stream is SplitMix64(seed + tag). */
export const TAG = {
  issues: 0, W1_random: 1, W1_edge: 2, W2_mixed: 3, W3_mixed: 4, W4_a: 5, W4_b: 6, W4_c: 7, W4_c2: 8, W5_mixed: 9, W6_random: 10, W6_edge: 11,
  projects: 100, comments: 101, tasks: 102, members: 103,
}

const GAMMA_HI = 0x9e3779b9, GAMMA_LO = 0x7f4a7c15
const M1_HI = 0xbf58476d, M1_LO = 0x1ce4e5b9
const M2_HI = 0x94d049bb, M2_LO = 0x133111eb

/** (ah:al) * (bh:bl) mod 2^64, as unsigned 32-bit halves written into out[0]=hi, out[1]=lo. */
function mul64(ah, al, bh, bl, out) {
  const a0 = al & 0xffff, a1 = al >>> 16, b0 = bl & 0xffff, b1 = bl >>> 16
  const p00 = a0 * b0, p01 = a0 * b1, p10 = a1 * b0, p11 = a1 * b1
  const mid = (p00 >>> 16) + (p01 & 0xffff) + (p10 & 0xffff)
  const carry = p11 + Math.floor(p01 / 65536) + Math.floor(p10 / 65536) + Math.floor(mid / 65536)
  out[1] = Math.imul(al, bl) >>> 0
  out[0] = (carry + Math.imul(ah, bl) + Math.imul(al, bh)) >>> 0
}

/** SplitMix64 (Steele, Lea, Flood 2014) over two unsigned 32-bit halves. */
export class SplitMix64 {
  constructor(seed) {
    // seed: a non-negative safe integer (Number) or a BigInt; taken mod 2^64.
    const s = BigInt.asUintN(64, BigInt(seed))
    this.hi = Number(s >> 32n) >>> 0
    this.lo = Number(s & 0xffffffffn) >>> 0
    this.out = [0, 0]
  }
  /** Advances and leaves the 64-bit output in this.out (hi, lo). */
  step() {
    const lo = this.lo + GAMMA_LO
    this.lo = lo >>> 0
    this.hi = (this.hi + GAMMA_HI + (lo > 0xffffffff ? 1 : 0)) >>> 0
    let zh = this.hi, zl = this.lo
    // z = (z ^ (z >>> 30)) * M1
    zl = (zl ^ ((zl >>> 30) | (zh << 2))) >>> 0; zh = (zh ^ (zh >>> 30)) >>> 0
    mul64(zh, zl, M1_HI, M1_LO, this.out); zh = this.out[0]; zl = this.out[1]
    // z = (z ^ (z >>> 27)) * M2
    zl = (zl ^ ((zl >>> 27) | (zh << 5))) >>> 0; zh = (zh ^ (zh >>> 27)) >>> 0
    mul64(zh, zl, M2_HI, M2_LO, this.out); zh = this.out[0]; zl = this.out[1]
    // z ^ (z >>> 31)
    this.out[1] = (zl ^ ((zl >>> 31) | (zh << 1))) >>> 0
    this.out[0] = (zh ^ (zh >>> 31)) >>> 0
    return this.out
  }
  /** The next 64-bit output as a BigInt (for checks). */
  nextBig() {
    const o = this.step()
    return (BigInt(o[0]) << 32n) | BigInt(o[1])
  }
  /** Uniform-ish in [0, bound), bound <= 2^21: floor(hi32(next) * bound / 2^32). */
  nextInt(bound) {
    return Math.floor((this.step()[0] * bound) / 4294967296)
  }
}

/** Reference SplitMix64 in BigInt, used only by the self-check. */
export function* splitMixBig(seed) {
  let s = BigInt.asUintN(64, BigInt(seed))
  const M = (x) => BigInt.asUintN(64, x)
  for (;;) {
    s = M(s + 0x9e3779b97f4a7c15n)
    let z = s
    z = M((z ^ (z >> 30n)) * 0xbf58476d1ce4e5b9n)
    z = M((z ^ (z >> 27n)) * 0x94d049bb133111ebn)
    yield z ^ (z >> 31n)
  }
}

/** n issues; field draws in the order status, priority, title word, created jitter, assignee, project. */
export function issues(n, seed = DEFAULT_SEED) {
  const rnd = new SplitMix64(seed + TAG.issues)
  const rows = new Array(n)
  for (let id = 0; id < n; id++) {
    const status = STATUSES[rnd.nextInt(3)]
    const priority = rnd.nextInt(100)
    const title = WORDS[rnd.nextInt(8)] + ' in module ' + (id % 97)
    const created = 1700000000 + 16 * id + rnd.nextInt(16)
    const assignee = rnd.nextInt(USERS)
    const project_id = rnd.nextInt(PROJECTS)
    rows[id] = { id, status, priority, title, created, assignee, project_id }
  }
  return rows
}

export function users() {
  const rows = new Array(USERS)
  for (let id = 0; id < USERS; id++) rows[id] = { id, name: 'user-' + id }
  return rows
}

/** PROJECTS projects; archived when nextInt(5) == 0 (about 20%). */
export function projects(seed = DEFAULT_SEED) {
  const rnd = new SplitMix64(seed + TAG.projects)
  const rows = new Array(PROJECTS)
  for (let id = 0; id < PROJECTS; id++) rows[id] = { id, name: 'project-' + id, archived: rnd.nextInt(5) === 0 }
  return rows
}

/** Order of W1's window: priority desc, created asc, id asc. */
export function w1Compare(a, b) {
  return b.priority - a.priority || a.created - b.created || a.id - b.id
}

/**
 * The open rows in W1 order, kept outside the timed section: one bucket per priority (0..99),
 * each sorted by (created, id). at(k) is the k-th open row; apply(before, after) keeps it current.
 */
export class OpenOrder {
  constructor(rows) {
    this.buckets = Array.from({ length: 100 }, () => [])
    this.size = 0
    for (const r of rows) if (r.status === 'open') this.buckets[r.priority].push(r)
    for (const b of this.buckets) { b.sort(w1Compare); this.size += b.length }
  }
  at(k) {
    for (let p = 99; p >= 0; p--) {
      const b = this.buckets[p]
      if (k < b.length) return b[k]
      k -= b.length
    }
    throw new Error('OpenOrder.at out of range')
  }
  static #pos(b, r) {
    let lo = 0, hi = b.length
    while (lo < hi) { const m = (lo + hi) >>> 1; if (w1Compare(b[m], r) < 0) lo = m + 1; else hi = m }
    return lo
  }
  apply(before, after) {
    if (before.status === 'open') {
      const b = this.buckets[before.priority], i = OpenOrder.#pos(b, before)
      if (b[i]?.id !== before.id) throw new Error('OpenOrder lost row ' + before.id)
      b.splice(i, 1); this.size--
    }
    if (after.status === 'open') {
      const b = this.buckets[after.priority]
      b.splice(OpenOrder.#pos(b, after), 0, after); this.size++
    }
  }
}

/** Order of W6's window: title asc (UTF-16 units, as String.compareTo and SQL's binary collation), id asc. */
export function w6Compare(a, b) {
  return a.title < b.title ? -1 : a.title > b.title ? 1 : a.id - b.id
}

/** The open rows in W6 order, one sorted array kept outside the timed section. */
export class TitleOrder {
  constructor(rows) {
    this.rows = rows.filter((r) => r.status === 'open').sort(w6Compare)
  }
  get size() { return this.rows.length }
  at(k) { return this.rows[k] }
  #pos(r) {
    let lo = 0, hi = this.rows.length
    while (lo < hi) { const m = (lo + hi) >>> 1; if (w6Compare(this.rows[m], r) < 0) lo = m + 1; else hi = m }
    return lo
  }
  apply(before, after) {
    if (before.status === 'open') {
      const i = this.#pos(before)
      if (this.rows[i]?.id !== before.id) throw new Error('TitleOrder lost row ' + before.id)
      this.rows.splice(i, 1)
    }
    if (after.status === 'open') this.rows.splice(this.#pos(after), 0, after)
  }
}

function newPriority(row, rnd) { return (row.priority + 1 + rnd.nextInt(99)) % 100 }
/** Another word than the title's, in the generator's form (the module stays id % 97). */
function newTitle(row, rnd) {
  const w = WORDS.indexOf(row.title.slice(0, row.title.indexOf(' ')))
  if (w < 0) throw new Error('title of issue ' + row.id + ' does not start with a word: ' + row.title)
  return WORDS[(w + 1 + rnd.nextInt(WORDS.length - 1)) % WORDS.length] + ' in module ' + (row.id % 97)
}
function newAssignee(row, rnd) { return (row.assignee + 1 + rnd.nextInt(USERS - 1)) % USERS }

/**
 * An update stream over `data` (an array of rows indexed by id, owned by the caller). next()
 * returns the new version of one row without changing data; the caller then stores it with
 * applied(after), which replaces data[after.id] and keeps any side index current.
 */
export function updates(workload, mix, data, seed = DEFAULT_SEED) {
  const key = workload + '_' + mix
  if (!(key in TAG) || !/^W[1236]_/.test(key)) throw new Error('no update stream ' + key)
  const rnd = new SplitMix64(seed + TAG[key])
  const n = data.length
  if (key === 'W6_edge') {
    const order = new TitleOrder(data)
    return {
      next() {
        const r = order.at(rnd.nextInt(Math.min(LIMIT + EDGE_SPAN, order.size)))
        return { ...r, title: newTitle(r, rnd) }
      },
      applied(after) { order.apply(data[after.id], after); data[after.id] = after },
    }
  }
  if (key === 'W6_random') {
    return {
      next() { const r = data[rnd.nextInt(n)]; return { ...r, title: newTitle(r, rnd) } },
      applied(after) { data[after.id] = after },
    }
  }
  if (key === 'W1_edge') {
    const order = new OpenOrder(data)
    return {
      next() {
        const r = order.at(rnd.nextInt(Math.min(LIMIT + EDGE_SPAN, order.size)))
        return { ...r, priority: newPriority(r, rnd) }
      },
      applied(after) { order.apply(data[after.id], after); data[after.id] = after },
    }
  }
  const assigneeToo = key !== 'W1_random'
  return {
    next() {
      const r = data[rnd.nextInt(n)]
      if (assigneeToo && rnd.nextInt(10) === 0) return { ...r, assignee: newAssignee(r, rnd) }
      return { ...r, priority: newPriority(r, rnd) }
    },
    applied(after) { data[after.id] = after },
  }
}

// ---- W4: projects x issues x comments, and the comment update streams ----

/** Comments per issue at any size: W4 at N issues has 10 N comments (and the PROJECTS projects). */
export const COMMENTS_PER_ISSUE = 10
export const COMMENT_LIMIT = 3
export const W4_MIXES = ['a', 'b', 'c', 'c2']
const COMMENT_EPOCH = 1800000000

/** Comment `id` on issue `issue` with its draws (created jitter, then body word) from rnd. */
function comment(id, issue, rnd) {
  return { id, issue_id: issue, created: COMMENT_EPOCH + 4 * id + rnd.nextInt(4), body: WORDS[rnd.nextInt(8)] }
}

/** 10 n comments on n issues; per row the draws are issue, created jitter, body word. */
export function comments(n, seed = DEFAULT_SEED) {
  const rnd = new SplitMix64(seed + TAG.comments)
  const rows = new Array(COMMENTS_PER_ISSUE * n)
  for (let id = 0; id < rows.length; id++) rows[id] = comment(id, rnd.nextInt(n), rnd)
  return rows
}

/** W4's child order: created desc, id desc (created is distinct, so id only breaks no ties). */
export function commentCompare(a, b) { return b.created - a.created || b.id - a.id }

/**
 * The driver's W4 data: issues (never updated), comments by id (grown by inserts, replaced by
 * moves), the 50 visible issues (the first LIMIT open issues in W1 order) and, per visible issue,
 * its comments in child order, so the streams can draw "the newest comment of a visible issue".
 */
export class W4State {
  constructor(issueRows, commentRows) {
    this.issues = issueRows
    this.comments = commentRows.slice()
    this.visible = issueRows.filter((r) => r.status === 'open').sort(w1Compare).slice(0, LIMIT).map((r) => r.id)
    this.slot = new Map(this.visible.map((id, k) => [id, k]))
    this.lists = this.visible.map(() => [])
    for (const c of this.comments) this.#add(c)
  }
  static #pos(list, c) {
    let lo = 0, hi = list.length
    while (lo < hi) { const m = (lo + hi) >>> 1; if (commentCompare(list[m], c) < 0) lo = m + 1; else hi = m }
    return lo
  }
  #add(c) {
    const k = this.slot.get(c.issue_id)
    if (k !== undefined) { const l = this.lists[k]; l.splice(W4State.#pos(l, c), 0, c) }
  }
  #remove(c) {
    const k = this.slot.get(c.issue_id)
    if (k === undefined) return
    const l = this.lists[k], i = W4State.#pos(l, c)
    if (l[i]?.id !== c.id) throw new Error('W4State lost comment ' + c.id)
    l.splice(i, 1)
  }
  /** Stores a change: { before: null | comment, after: comment }. */
  apply(change) {
    if (change.before) this.#remove(change.before)
    this.#add(change.after)
    this.comments[change.after.id] = change.after
  }
}

/**
 * A W4 update stream over `state` (a W4State, owned by the caller): next() returns one change,
 * { before: null, after } for an insert or { before, after } for a move (issue_id changed), without
 * storing it; the caller stores it with applied(change). Mixes:
 *   a  insert on a visible issue: V[nextInt(50)]; the new comment (id = count) is the newest
 *   b  insert on an invisible issue: nextInt(N) until not visible
 *   c  comment nextInt(count) moved to issue (issue_id + 1 + nextInt(N - 1)) % N
 *   c2 the newest comment of V[k], k = nextInt(50) (the next k with comments, cyclically, if it
 *      has none) moved to V[(k + 1 + nextInt(49)) % 50]
 */
export function w4Updates(mix, state, seed = DEFAULT_SEED) {
  const key = 'W4_' + mix
  if (!(key in TAG)) throw new Error('no update stream ' + key)
  const rnd = new SplitMix64(seed + TAG[key])
  const n = state.issues.length, v = state.visible
  const insert = (issue) => ({ before: null, after: comment(state.comments.length, issue, rnd) })
  const moved = (c, issue) => ({ before: c, after: { ...c, issue_id: issue } })
  const next = {
    a: () => insert(v[rnd.nextInt(v.length)]),
    b: () => {
      for (;;) { const i = rnd.nextInt(n); if (!state.slot.has(i)) return insert(i) }
    },
    c: () => {
      const c = state.comments[rnd.nextInt(state.comments.length)]
      return moved(c, (c.issue_id + 1 + rnd.nextInt(n - 1)) % n)
    },
    c2: () => {
      let k = rnd.nextInt(v.length)
      for (let tries = 0; state.lists[k].length === 0; tries++) {
        if (tries === v.length) throw new Error('W4 c2: no visible issue has comments')
        k = (k + 1) % v.length
      }
      return moved(state.lists[k][0], v[(k + 1 + rnd.nextInt(v.length - 1)) % v.length])
    },
  }[mix]
  return { next, applied(change) { state.apply(change) } }
}

// ---- W5: tasks left-joined to an optional member, and its mixed update stream ----

export const W5_LIMIT = 50
/** Members at n tasks. */
export const memberCount = (n) => Math.max(2, Math.floor(n / 100))

/** n tasks; per row the draws are priority, title word, assigned (nextInt(5) >= 3), member. */
export function tasks(n, seed = DEFAULT_SEED) {
  const rnd = new SplitMix64(seed + TAG.tasks)
  const m = memberCount(n)
  const rows = new Array(n)
  for (let id = 0; id < n; id++) {
    const priority = rnd.nextInt(100)
    const title = WORDS[rnd.nextInt(8)] + ' task ' + id
    const assigned = rnd.nextInt(5) >= 3
    const member = rnd.nextInt(m)
    rows[id] = { id, priority, title, assignee: assigned ? member : null }
  }
  return rows
}

/** The members at n tasks; active unless nextInt(4) == 0. */
export function members(n, seed = DEFAULT_SEED) {
  const rnd = new SplitMix64(seed + TAG.members)
  const rows = new Array(memberCount(n))
  for (let id = 0; id < rows.length; id++) rows[id] = { id, name: 'member-' + id, active: rnd.nextInt(4) !== 0 }
  return rows
}

/** W5's order: priority desc, id asc. */
export function w5Compare(a, b) { return b.priority - a.priority || a.id - b.id }
/** W5's filter: unassigned, or assigned to an active member. */
export function w5Visible(t, members) { return t.assignee === null || members[t.assignee].active }

/**
 * W5's mixed stream over tasks and members (arrays by id, owned by the caller): next() returns
 * { table: 'tasks' | 'members', before, after } without storing it; applied(change) stores it.
 * k = nextInt(10): k < 5 task nextInt(n) gets a new priority; k < 8 task nextInt(n) changes
 * assignee (NULL -> nextInt(m); else nextInt(2) == 0 -> NULL, or another member); else member
 * nextInt(m) flips active.
 */
export function w5Updates(taskRows, memberRows, seed = DEFAULT_SEED) {
  const rnd = new SplitMix64(seed + TAG.W5_mixed)
  const n = taskRows.length, m = memberRows.length
  return {
    next() {
      const k = rnd.nextInt(10)
      if (k >= 8) {
        const u = memberRows[rnd.nextInt(m)]
        return { table: 'members', before: u, after: { ...u, active: !u.active } }
      }
      const t = taskRows[rnd.nextInt(n)]
      if (k < 5) return { table: 'tasks', before: t, after: { ...t, priority: (t.priority + 1 + rnd.nextInt(99)) % 100 } }
      let a
      if (t.assignee === null) a = rnd.nextInt(m)
      else if (rnd.nextInt(2) === 0) a = null
      else a = (t.assignee + 1 + rnd.nextInt(m - 1)) % m
      return { table: 'tasks', before: t, after: { ...t, assignee: a } }
    },
    applied(c) { (c.table === 'tasks' ? taskRows : memberRows)[c.after.id] = c.after },
  }
}
