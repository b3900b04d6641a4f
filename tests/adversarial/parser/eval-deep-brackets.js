// eval of a string with 100000 nested brackets built at run time (never seen by the source check).
eval('['.repeat(100000) + ']'.repeat(100000))
