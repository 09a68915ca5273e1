package dev.rivulet.query;

import dev.rivulet.engine.Row;

/**
 * A row of a collection with its key: the key {@link LiveCollection#get} takes and {@link
 * ChangeEvent#key} names.
 */
public record KeyedRow(Row key, Row row) {}
