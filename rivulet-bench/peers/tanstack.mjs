// TanStack DB 0.15.2 adapter: sync-backed collections (begin/write/commit), live query
// collections from the query builder, BTree indexes on every column a query filters, orders
// or joins on (what its dev-mode warnings ask for) plus autoIndex 'eager' with BTreeIndex.
import {
  createCollection, createLiveQueryCollection, BTreeIndex, eq, and, or, isUndefined, count, max, toArray, materialize,
} from '@tanstack/db'

let uid = 0

/** A collection whose sync handle is kept, so the driver can write committed batches. */
function source(name, rows, indexed) {
  let ctl
  const c = createCollection({
    id: `${name}-${++uid}`,
    getKey: (r) => r.id,
    startSync: true,
    gcTime: 0,
    autoIndex: 'eager',
    defaultIndexType: BTreeIndex,
    sync: { sync: (p) => { ctl = p; return () => {} }, rowUpdateMode: 'full' },
  })
  for (const col of indexed) c.createIndex((r) => r[col], { indexType: BTreeIndex })
  ctl.begin()
  for (const r of rows) ctl.write({ type: 'insert', value: r })
  ctl.commit()
  ctl.markReady()
  return { c, ctl }
}

const QUERIES = {
  W1: ({ issues }) => (q) => q.from({ i: issues })
    .where(({ i }) => eq(i.status, 'open'))
    .orderBy(({ i }) => i.priority, 'desc')
    .orderBy(({ i }) => i.created, 'asc')
    .limit(50),
  W6: ({ issues }) => (q) => q.from({ i: issues })
    .where(({ i }) => eq(i.status, 'open'))
    .orderBy(({ i }) => i.title, 'asc')
    .orderBy(({ i }) => i.id, 'asc')
    .limit(50),
  W2: ({ issues, users }) => (q) => q.from({ i: issues })
    .innerJoin({ u: users }, ({ i, u }) => eq(i.assignee, u.id))
    .groupBy(({ u }) => [u.id, u.name])
    .select(({ i, u }) => ({ id: u.id, name: u.name, issues: count(i.id), max_priority: max(i.priority) })),
  W3: ({ issues, users, projects }) => (q) => q.from({ i: issues })
    .innerJoin({ u: users }, ({ i, u }) => eq(i.assignee, u.id))
    .innerJoin({ p: projects }, ({ i, p }) => eq(i.project_id, p.id))
    .where(({ i, p }) => and(eq(i.status, 'open'), eq(p.archived, false)))
    .select(({ i, u, p }) => ({ id: i.id, title: i.title, priority: i.priority, owner: u.name, project: p.name })),
  // Nested (its includes API): the window of open issues, each with an array include of its 3
  // newest comments and a singleton include of its project.
  W4: ({ issues, comments, projects }) => (q) => q.from({ i: issues })
    .where(({ i }) => eq(i.status, 'open'))
    .orderBy(({ i }) => i.priority, 'desc')
    .orderBy(({ i }) => i.created, 'asc')
    .limit(50)
    .select(({ i }) => ({
      id: i.id, title: i.title, priority: i.priority, created: i.created,
      comments: toArray(q.from({ c: comments })
        .where(({ c }) => eq(c.issue_id, i.id))
        .orderBy(({ c }) => c.created, 'desc')
        .orderBy(({ c }) => c.id, 'desc')
        .limit(3)
        .select(({ c }) => ({ id: c.id, created: c.created, body: c.body }))),
      project: materialize(q.from({ p: projects })
        .where(({ p }) => eq(p.id, i.project_id))
        .select(({ p }) => ({ id: p.id, name: p.name }))
        .findOne()),
    })),
  // Left join with NULL-heavy keys, filtered on the joined side (an unmatched member is
  // undefined), ordered and limited.
  W5: ({ tasks, members }) => (q) => q.from({ t: tasks })
    .leftJoin({ u: members }, ({ t, u }) => eq(t.assignee, u.id))
    .where(({ u }) => or(isUndefined(u?.id), eq(u?.active, true)))
    .orderBy(({ t }) => t.priority, 'desc')
    .orderBy(({ t }) => t.id, 'asc')
    .limit(50)
    .select(({ t, u }) => ({
      id: t.id, title: t.title, priority: t.priority, assignee: t.assignee, owner: u?.name, active: u?.active,
    })),
}

const ISSUE_INDEXES = {
  W1: ['status', 'priority', 'created'], W6: ['status', 'title'], W2: ['assignee'], W3: ['status', 'assignee', 'project_id'],
  W4: ['status', 'priority', 'created', 'project_id'],
}
/** Changes seen by a subscriber attached as a user's would be (with the initial state). */
const SUBSCRIBED = new Set(['W4', 'W5'])

/**
 * Loads the tables and hydrates the workload's live query. Returns the timings and a handle:
 * update(before, after) writes one committed sync transaction (the live result is current when
 * it returns), result() is the live result as plain rows (ordered for W1, W4, W5, W6).
 */
export async function open(workload, data) {
  const t0 = performance.now()
  const s = {}
  const tables = {}
  if (workload === 'W5') {
    tables.tasks = source('tasks', data.tasks, ['priority', 'assignee'])
    tables.members = source('members', data.members, ['id', 'active'])
    s.tasks = tables.tasks.c
    s.members = tables.members.c
  }
  const issues = workload === 'W5' ? null : source('issues', data.issues, ISSUE_INDEXES[workload])
  if (issues) s.issues = issues.c
  if (workload === 'W2' || workload === 'W3') s.users = source('users', data.users, ['id']).c
  if (workload === 'W3') s.projects = source('projects', data.projects, ['id', 'archived']).c
  let comments = null
  if (workload === 'W4') {
    s.projects = source('projects', data.projects, ['id']).c
    comments = source('comments', data.comments, ['issue_id', 'created'])
    s.comments = comments.c
  }
  const t1 = performance.now()
  const live = createLiveQueryCollection({ query: QUERIES[workload](s), startSync: true, gcTime: 0 })
  await live.preload()
  const t2 = performance.now()
  if (live.status !== 'ready') throw new Error('live query not ready: ' + live.status)
  const { ctl } = workload === 'W4' ? comments : workload === 'W5' ? tables.tasks : issues
  // W4, W5: change events as a user's subscriber sees them (the initial state included). W1-W3
  // keep no subscriber, as Rivulet's W1-W3 lines do.
  let events = 0
  const sub = !SUBSCRIBED.has(workload) ? null
    : live.subscribeChanges((changes) => { events += changes.length }, { includeInitialState: true })
  return {
    loadMs: t1 - t0,
    queryMs: t2 - t1,
    update(before, after, table) {
      const c = table ? tables[table].ctl : ctl
      c.begin()
      c.write({ type: before ? 'update' : 'insert', value: after })
      c.commit()
    },
    events: sub ? () => events : undefined,
    result() {
      return live.toArray.map((r) => workload === 'W1' ? { id: r.id, priority: r.priority, created: r.created }
        : workload === 'W6' ? { id: r.id, title: r.title }
        : workload === 'W4' ? { id: r.id, title: r.title, priority: r.priority, created: r.created,
          comments: r.comments.map((c) => ({ id: c.id, created: c.created, body: c.body })),
          project: r.project ? { id: r.project.id, name: r.project.name } : null }
        : workload === 'W5' ? { id: r.id, title: r.title, priority: r.priority, assignee: r.assignee,
          owner: r.owner ?? null, active: r.active ?? null }
        : workload === 'W2' ? { id: r.id, name: r.name, issues: r.issues, max_priority: r.max_priority }
          : { id: r.id, title: r.title, priority: r.priority, owner: r.owner, project: r.project })
    },
    close() { sub?.unsubscribe(); live.cleanup(); for (const c of Object.values(s)) c.cleanup() },
  }
}
