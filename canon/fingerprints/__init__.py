"""What is compared and stored: shingle windows and their hashes, MinHash signatures, LSH band
keys, winnowing fingerprints, exact set measures and sentence sets.

Each module is one data structure over a canonical form's tokens (or their hashes from
:mod:`canon.hashing`): :mod:`.shingles`, :mod:`.minhash`, :mod:`.lsh`, :mod:`.winnowing`,
:mod:`.measures`, :mod:`.sentences`.  Everything here is persisted by the index, so a change
to any definition needs a new profile fingerprint or index schema.
"""

__all__: list[str] = []
