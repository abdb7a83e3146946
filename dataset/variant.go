package dataset

import "slices"

// DefaultVariant names the rows whose variant field is null or absent.
const DefaultVariant = "default"

// splitVariants groups the rows by the Key of their variant field value.
// An empty key (null, absent or "") names the DefaultVariant.
func (d *Dataset) splitVariants() {
	d.variantIndex = map[string]int{}
	var buf []byte
	for row := 0; row < d.n; row++ {
		buf = d.appendKey(buf[:0], row, d.variantField)
		if len(buf) == 0 {
			buf = append(buf, DefaultVariant...)
		}
		i, ok := d.variantIndex[string(buf)]
		if !ok {
			i = len(d.variants)
			name := string(buf)
			d.variantIndex[name] = i
			d.variants = append(d.variants, Variant{Name: name})
			d.variantRows = append(d.variantRows, nil)
		}
		d.variantRows[i] = append(d.variantRows[i], int32(row))
		d.variants[i].Count++
	}
	for i, rows := range d.variantRows {
		d.variantRows[i] = slices.Clip(trim(rows))
	}
}

// Variants returns the variants with their row counts in first-seen order,
// or nil when the dataset has no variant field. The caller owns the result.
func (d *Dataset) Variants() []Variant {
	return slices.Clone(d.variants)
}

// VariantRows returns the rows of the named variant in storage order, or nil
// for an unknown name. The result is shared: callers must not modify it.
func (d *Dataset) VariantRows(name string) []int32 {
	if i, ok := d.variantIndex[name]; ok {
		return d.variantRows[i]
	}
	return nil
}
