package model

// MaxValueCountRows bounds the rows one ValueCounts call reads: a table
// of a bigger dataset is counted over its first MaxValueCountRows rows
// (ValueCounts.Scanned says how many).
const MaxValueCountRows = 200_000

// ValueCounts say how the values of one column of a table repeat in the
// data it reads (the dataset's rows of the table's variant, not the
// mutations' overlay): whether a relation's linking column is unique.
type ValueCounts struct {
	// Rows is the table's row count; Scanned the rows read (at most
	// MaxValueCountRows), over which the other counts are taken.
	Rows, Scanned int
	// Nulls are the rows without a value; Distinct the different values.
	Nulls, Distinct int
	// Duplicates are the rows whose value an earlier row already had:
	// 0 means the column is unique.
	Duplicates int
}
