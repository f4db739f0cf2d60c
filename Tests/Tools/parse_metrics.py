"""Reads a Prometheus text exposition with the reference client's own parser (as a
scraper would) and prints it as JSON: {family: {"type": T, "samples": [[name, labels, value]...]}}.
Fails on anything the parser refuses.

  parse_metrics.py FILE
"""
import json
import sys

from prometheus_client.parser import text_string_to_metric_families


def main():
    text = open(sys.argv[1]).read()
    families = {}
    for family in text_string_to_metric_families(text):
        families[family.name] = {
            "type": family.type,
            "samples": [[sample.name, sample.labels, sample.value] for sample in family.samples],
        }
    print(json.dumps(families))


if __name__ == "__main__":
    main()
