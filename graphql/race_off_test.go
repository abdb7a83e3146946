//go:build !race

package graphql

// poolSlack is the allocations a test allows for sync.Pool, which drops
// a quarter of what it is given under the race detector (a pooled
// bitset is then its struct, its words and its scratch made anew).
const poolSlack = 0
