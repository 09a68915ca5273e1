package dev.rivulet.query.face;

import dev.rivulet.engine.Row;

/**
 * The net change of one key of a collection in one transaction, as stored rows (a live query's
 * hold hidden key and sort columns, and nested values whole): what the change-tree face diffs.
 *
 * @param key the key
 * @param before the stored row before the transaction, or null when the key was absent
 * @param after the stored row after it, or null when the key is absent
 */
public record StoredChange(Row key, Row before, Row after) {}
