package model

// ReservedTypeName reports whether name may not be a table name because the
// runtime schema defines it (Query, Mutation, SortDirection, the scalars).
// Importers use it to rename instead of being refused.
func ReservedTypeName(name string) bool { return reservedTypeNames[name] }
