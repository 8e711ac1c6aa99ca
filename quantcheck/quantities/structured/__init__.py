"""Documents that hold data rather than prose, read cell by cell with where each value sits.

A value in data has no unit beside it: its unit comes from its key or column header, a
units map, a ``# unit:`` line or a caption, and its date from its own record. The readers
here only locate values; :mod:`quantcheck.quantities.evidence` turns them into
facts. What is read:

- a whole document that is one JSON document or Python literal (:mod:`.literals`);
- HTML tables (:mod:`.html_tables`) and markdown tables (:mod:`.markdown`) anywhere;
- a CSV or TSV table at the start, after ``#`` metadata lines (:mod:`.delimited`);
- tables whose columns are aligned by spaces, as text reports and PDF extractions lay
  them out (:mod:`.fixed_width`);
- ``key: value`` lists (:mod:`.keyvalue`);
- everything else is prose, returned as spans.

Every reader is linear in its input, bounded in memory and free of recursion on nesting
depth, so no document can crash or stall a check.
"""

from quantcheck.quantities.structured.cells import Cell, Layout
from quantcheck.quantities.structured.reader import MAX_CHARACTERS, most_cells, read

__all__ = ["MAX_CHARACTERS", "Cell", "Layout", "most_cells", "read"]
